package dev.openrag.knowledge.port;

import java.util.List;

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
        float[] vector) {

    /** The same chunk carrying {@code vector} (null: without one, as search hits are). */
    public IndexedChunk withVector(float[] vector) {
        return new IndexedChunk(collection, documentId, chunkId, chunkIndex, title, sourceUri, headingPath, text, context, vector);
    }
}
