package dev.openrag.knowledge.port;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** Section and document summaries (ARCHITECTURE §4) as a retrieval signal. */
public interface SummaryIndex {

    /**
     * Chunks of the {@code sections} sections whose summaries best match the query, ranked by
     * summary similarity plus the chunk's own similarity.
     */
    default List<ScoredChunk> searchBySummary(String collection, float[] queryVector, int sections, int limit) {
        return searchBySummary(collection, queryVector, sections, limit, null);
    }

    /**
     * {@link #searchBySummary(String, float[], int, int)} among the sections of {@code documentIds} only (null: the
     * whole collection): the best sections of the selected documents, never the collection's best cut down afterwards,
     * which a selective filter would leave empty.
     */
    List<ScoredChunk> searchBySummary(String collection, float[] queryVector, int sections, int limit, Set<String> documentIds);

    /**
     * Per chunk id, the best cosine similarity between the query and the summary of a section
     * containing the chunk or of its document; chunks without summaries are absent.
     */
    Map<String, Double> summarySimilarity(List<String> chunkIds, float[] queryVector);
}
