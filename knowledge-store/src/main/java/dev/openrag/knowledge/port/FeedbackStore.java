package dev.openrag.knowledge.port;

import java.util.Collection;
import java.util.Map;

/** People's verdicts on search results: {@code (:Chunk)-[:HAS_FEEDBACK]->(:Feedback {query, helpful, comment, embedding})}. */
public interface FeedbackStore {

    /** Stores a verdict; false when the chunk does not exist in that collection. */
    boolean add(String id, String collection, String chunkId, String query, boolean helpful, String comment, float[] queryEmbedding, long now);

    /**
     * For each chunk with feedback on a query similar to this one (at least {@code minSimilarity},
     * Neo4j's [0, 1] cosine scale): helpful minus unhelpful verdicts, each weighted by that similarity.
     */
    Map<String, Double> netVerdicts(Collection<String> chunkIds, float[] query, double minSimilarity);
}
