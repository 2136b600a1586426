package dev.openrag.knowledge.port;

import java.util.List;

import dev.openrag.knowledge.filter.DocumentFilter;

/** BM25 search over contextualized chunk text (OpenSearch). */
public interface LexicalIndex {

    /** Inserts or replaces chunks by chunk id (idempotent). */
    void upsert(List<IndexedChunk> chunks);

    /** Makes {@code chunks} the document's only chunks: upserts them and drops any left from an older version. */
    void replaceDocument(String collection, String documentId, List<IndexedChunk> chunks);

    List<ScoredChunk> search(String collection, String query, int k);

    /** The k best chunks among the documents {@code filter} selects (null: all), the filter applied inside the query. */
    List<ScoredChunk> search(String collection, String query, int k, DocumentFilter filter);

    /**
     * {@link #search(String, String, int, DocumentFilter)}'s hits, the same ones in the same order with the same
     * scores, whose chunks carry only their collection, document id, chunk id and index: for a search that holds
     * the chunks elsewhere (an in-memory copy) and would otherwise carry every hit's text there and back.
     */
    List<ScoredChunk> searchWithoutText(String collection, String query, int k, DocumentFilter filter);

    /** The chunks with these ids that the collection holds (any order), as {@link #search} gives them. */
    List<IndexedChunk> chunks(String collection, java.util.Collection<String> chunkIds);

    void deleteDocument(String collection, String documentId);

    /**
     * Makes {@code metadata} (checked, JSON values) the only metadata on the document's chunks,
     * leaving their text and scores alone (a metadata-only update); returns how many chunks it
     * changed, 0 when the collection or document has none.
     */
    long replaceMetadata(String collection, String documentId, java.util.Map<String, Object> metadata);

    /**
     * Reserves the fields the metadata needs in the collection, or refuses metadata that would take it past
     * {@link dev.openrag.schemas.Metadata#MAX_COLLECTION_FIELDS} distinct fields. Atomic across writers: of
     * several reserving the last room at once, one gets it, so a document that passes is taken by every
     * later write ({@link #upsert}, {@link #replaceMetadata}, which reserve too).
     *
     * @throws IllegalArgumentException naming the collection, the limit and the keys that would be new
     */
    void reserveMetadataFields(String collection, java.util.Map<String, Object> metadata);

    long countChunks(String collection);

    /**
     * Whether the collection's index takes writes now, tried with a write that changes nothing:
     * true when it went through, false when there is nothing to try it on (no index yet); throws
     * what a refused write throws ({@link EngineUnavailableException}).
     */
    boolean acceptsWrites(String collection);
}
