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
}
