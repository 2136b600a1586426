package dev.openrag.knowledge.port;

import java.util.List;

/** BM25 search over contextualized chunk text (OpenSearch). */
public interface LexicalIndex {

    /** Inserts or replaces chunks by chunk id (idempotent). */
    void upsert(List<IndexedChunk> chunks);

    /** Makes {@code chunks} the document's only chunks: upserts them and drops any left from an older version. */
    void replaceDocument(String collection, String documentId, List<IndexedChunk> chunks);

    List<ScoredChunk> search(String collection, String query, int k);

    void deleteDocument(String collection, String documentId);

    long countChunks(String collection);
}
