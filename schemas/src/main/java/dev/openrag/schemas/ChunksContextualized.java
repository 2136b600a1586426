package dev.openrag.schemas;

import java.util.List;
import java.util.Map;

/** Chunks with their situating context ({@link Topics#CHUNKS_CONTEXTUALIZED}). */
public record ChunksContextualized(
        int schemaVersion,
        String eventId,
        String documentId,
        String jobId,
        String collection,
        Source source,
        String title,
        String contentHash,
        String contextualizer,
        List<Chunk> chunks,
        Map<String, Object> metadata,
        ApiGraph api) implements EventEnvelope, HasSource {
}
