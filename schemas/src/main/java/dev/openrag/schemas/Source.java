package dev.openrag.schemas;

/** Where a document came from: {@code type} is upload, folder, corpus, crawler, producer, ... */
public record Source(String type, String uri) {
}
