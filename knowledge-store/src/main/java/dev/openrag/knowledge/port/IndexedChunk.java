package dev.openrag.knowledge.port;

import java.util.List;
import java.util.Map;

/** A chunk as the stores keep it: enough to answer a search without another lookup. */
public record IndexedChunk(
        String collection,
        String documentId,
        String chunkId,
        int chunkIndex,
        String title,
        String sourceUri,
        List<String> headingPath,
        String text,
        String context,
        float[] vector,
        Map<String, Object> metadata) {

    /**
     * {@code metadata}: the document's (JSON values), written with the chunk where a store filters
     * chunks by it (OpenSearch); empty on hits, whose metadata search looks up once per document.
     */
    public IndexedChunk {
        metadata = metadata == null ? Map.of() : metadata;
    }

    public IndexedChunk(String collection, String documentId, String chunkId, int chunkIndex, String title, String sourceUri,
                        List<String> headingPath, String text, String context, float[] vector) {
        this(collection, documentId, chunkId, chunkIndex, title, sourceUri, headingPath, text, context, vector, Map.of());
    }

    /** The same chunk carrying {@code vector} (null: without one, as search hits are). */
    public IndexedChunk withVector(float[] vector) {
        return new IndexedChunk(collection, documentId, chunkId, chunkIndex, title, sourceUri, headingPath, text, context, vector, metadata);
    }
}
