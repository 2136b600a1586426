package dev.openrag.schemas;

/** Events that still know where their document came from (for failure reports). */
public interface HasSource {

    Source source();
}
