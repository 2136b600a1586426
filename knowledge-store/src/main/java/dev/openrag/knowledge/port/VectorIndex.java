package dev.openrag.knowledge.port;

import java.util.List;

/** Nearest-neighbour search over chunk vectors: Neo4j's vector index or Qdrant, chosen by config. */
public interface VectorIndex {

    /** Inserts or replaces chunks by chunk id (idempotent). */
    void upsert(List<IndexedChunk> chunks);

    /** Makes {@code chunks} the document's only vectors: upserts them and drops any left from an older version. */
    void replaceDocument(String collection, String documentId, List<IndexedChunk> chunks);

    List<ScoredChunk> search(String collection, float[] queryVector, int k);

    /**
     * Starts a search of {@code collection} before its query vector exists. A search calls this
     * first and embeds the query meanwhile; an index with work to do ahead of the vector (the
     * {@code InMemoryVectorIndex} checks that its copy of the collection is current) starts it
     * here. The default does nothing ahead.
     */
    default PreparedSearch prepareSearch(String collection) {
        return (queryVector, k) -> search(collection, queryVector, k);
    }

    void deleteDocument(String collection, String documentId);

    long countChunks(String collection);

    /** A search of one collection, waiting for its query vector. */
    @FunctionalInterface
    interface PreparedSearch {
        List<ScoredChunk> nearest(float[] queryVector, int k);
    }
}
