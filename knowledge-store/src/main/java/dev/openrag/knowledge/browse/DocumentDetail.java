package dev.openrag.knowledge.browse;

import java.util.List;

/** A document with its chunks in order, each with the context it was indexed with. */
public record DocumentDetail(DocumentSummary document, List<ChunkView> chunks) {

    /** One chunk as stored. */
    public record ChunkView(String chunkId, int chunkIndex, List<String> headingPath, String context, String text) {
    }
}
