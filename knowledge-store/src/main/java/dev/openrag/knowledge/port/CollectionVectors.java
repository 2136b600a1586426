package dev.openrag.knowledge.port;

import java.util.List;

/**
 * A collection's chunks and vectors read whole, with a cheap version to tell when a copy of them
 * is out of date: what an in-memory copy of a small collection needs from the store that owns it.
 */
public interface CollectionVectors {

    /**
     * The collection's version now: {@code stamp} changes whenever one of its documents is written
     * or deleted; {@code chunks} is about how many chunks it holds (0 for an unknown collection).
     */
    Version version(String collection);

    /** Every chunk of the collection that a vector search can find, with its vector. */
    List<IndexedChunk> vectors(String collection);

    record Version(String stamp, long chunks) {
    }
}
