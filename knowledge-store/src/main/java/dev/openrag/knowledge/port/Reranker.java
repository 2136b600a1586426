package dev.openrag.knowledge.port;

import java.util.List;

/**
 * The second stage of search: scores the fused candidates against the query. Scores are in
 * [0, 1]; search adds them, weighted, to the normalised fused score, so a reranker refines the
 * first stage's order rather than replacing it (a cross-encoder adapter would plug in here).
 */
public interface Reranker {

    String name();

    /** One score in [0, 1] per candidate, in the candidates' order. */
    List<Double> score(String query, List<IndexedChunk> candidates);
}
