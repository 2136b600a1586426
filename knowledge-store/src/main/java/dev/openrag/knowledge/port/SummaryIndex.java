package dev.openrag.knowledge.port;

import java.util.List;
import java.util.Map;

/** Section and document summaries (ARCHITECTURE §4) as a retrieval signal. */
public interface SummaryIndex {

    /**
     * Chunks of the {@code sections} sections whose summaries best match the query, ranked by
     * summary similarity plus the chunk's own similarity.
     */
    List<ScoredChunk> searchBySummary(String collection, float[] queryVector, int sections, int limit);

    /**
     * Per chunk id, the best cosine similarity between the query and the summary of a section
     * containing the chunk or of its document; chunks without summaries are absent.
     */
    Map<String, Double> summarySimilarity(List<String> chunkIds, float[] queryVector);
}
