package dev.openrag.schemas;

/** A chunk made by the producer (pre-chunked corpus); passes the chunk stage untouched. */
public record PremadeChunk(String sourceChunkId, int index, String text) {
}
