package dev.openrag.knowledge.port;

import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/** Nearest-neighbour search over chunk vectors: Neo4j's vector index or Qdrant, chosen by config. */
public interface VectorIndex {

    /** Inserts or replaces chunks by chunk id (idempotent). */
    void upsert(List<IndexedChunk> chunks);

    /** Makes {@code chunks} the document's only vectors: upserts them and drops any left from an older version. */
    void replaceDocument(String collection, String documentId, List<IndexedChunk> chunks);

    List<ScoredChunk> search(String collection, float[] queryVector, int k);

    /**
     * The k nearest chunks among those of {@code documentIds} only: a filtered search, exact over
     * the selected documents' chunks (never the top of the whole collection cut down afterwards,
     * which would lose a selective filter's matches).
     */
    List<ScoredChunk> searchWithin(String collection, float[] queryVector, int k, Set<String> documentIds);

    /**
     * Starts a search of {@code collection} before its query vector exists. A search calls this
     * first and embeds the query meanwhile. {@code version} gives the collection's version as the
     * search read it ({@link SearchState}, beside the embedding): an index that keeps a copy of
     * the collection (the {@code InMemoryVectorIndex}) answers from the copy only when it was read
     * at that version. The default ignores it and searches when the vector comes.
     */
    default PreparedSearch prepareSearch(String collection, Supplier<CollectionVectors.Version> version) {
        return (queryVector, k) -> search(collection, queryVector, k);
    }

    /** {@link #prepareSearch(String, Supplier)} within {@code documentIds} (null: the whole collection), as {@link #searchWithin}. */
    default PreparedSearch prepareSearch(String collection, Supplier<CollectionVectors.Version> version, Set<String> documentIds) {
        return documentIds == null ? prepareSearch(collection, version)
                : (queryVector, k) -> searchWithin(collection, queryVector, k, documentIds);
    }

    void deleteDocument(String collection, String documentId);

    /**
     * Makes {@code metadata} the only metadata on the document's vectors without touching the vectors,
     * for an index that keeps metadata beside them (Qdrant's payload); returns how many chunks carry
     * it now. {@link #KEEPS_NO_METADATA} for an index that keeps none (Neo4j's vectors: filters read
     * the document node).
     */
    default long replaceMetadata(String collection, String documentId, java.util.Map<String, Object> metadata) {
        return KEEPS_NO_METADATA;
    }

    long KEEPS_NO_METADATA = -1;

    long countChunks(String collection);

    /** A search of one collection, waiting for its query vector. */
    @FunctionalInterface
    interface PreparedSearch {
        List<ScoredChunk> nearest(float[] queryVector, int k);
    }
}
