package dev.openrag.knowledge.port;

import java.util.List;

/** Nearest-neighbour search over chunk vectors: Neo4j's vector index or Qdrant, chosen by config. */
public interface VectorIndex {

    /** Inserts or replaces chunks by chunk id (idempotent). */
    void upsert(List<IndexedChunk> chunks);

    /** Makes {@code chunks} the document's only vectors: upserts them and drops any left from an older version. */
    void replaceDocument(String collection, String documentId, List<IndexedChunk> chunks);

    List<ScoredChunk> search(String collection, float[] queryVector, int k);

    void deleteDocument(String collection, String documentId);

    long countChunks(String collection);
}
