package dev.openrag.knowledge.port;

/** One hit of one retriever: its rank (1-based) and its native score. */
public record ScoredChunk(IndexedChunk chunk, int rank, double score) {
}
