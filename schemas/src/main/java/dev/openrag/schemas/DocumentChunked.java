package dev.openrag.schemas;

import java.util.List;
import java.util.Map;

/** The document text and its chunks ({@link Topics#CHUNKS_CHUNKED}). */
public record DocumentChunked(
        int schemaVersion,
        String eventId,
        String documentId,
        String jobId,
        String collection,
        Source source,
        String title,
        String mediaType,
        String text,
        String contentHash,
        List<Chunk> chunks,
        Map<String, String> metadata,
        ApiGraph api) implements EventEnvelope, HasSource {
}
