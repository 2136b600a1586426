package dev.openrag.knowledge.port;

import java.util.Map;

/**
 * One hit of one retriever: its rank (1-based), its native score and, where the retriever adds up
 * several signals (graph retrieval), what each gave (shown with explain).
 */
public record ScoredChunk(IndexedChunk chunk, int rank, double score, Map<String, Double> signals) {

    public ScoredChunk {
        signals = signals == null ? Map.of() : signals;
    }

    public ScoredChunk(IndexedChunk chunk, int rank, double score) {
        this(chunk, rank, score, Map.of());
    }
}
