package dev.openrag.schemas;

import java.util.List;

/**
 * One chunk as it travels the pipeline: the chunk stage fills text and position, the
 * contextualize stage adds {@code context}, the embed stage adds {@code vector}.
 */
public record Chunk(
        String chunkId,
        int index,
        String text,
        List<String> headingPath,
        int startOffset,
        int endOffset,
        String context,
        float[] vector) {

    public Chunk withContext(String newContext) {
        return new Chunk(chunkId, index, text, headingPath, startOffset, endOffset, newContext, vector);
    }

    public Chunk withVector(float[] newVector) {
        return new Chunk(chunkId, index, text, headingPath, startOffset, endOffset, context, newVector);
    }
}
