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
        ApiGraph api,
        Long arrivedAt) implements EventEnvelope, HasSource, VersionedEvent {

    /** An event without {@link #arrivedAt}, as written before versions were carried. */
    public ChunksContextualized(int schemaVersion, String eventId, String documentId, String jobId, String collection, Source source, String title, String contentHash, String contextualizer, List<Chunk> chunks, Map<String, Object> metadata, ApiGraph api) {
        this(schemaVersion, eventId, documentId, jobId, collection, source, title, contentHash, contextualizer, chunks, metadata, api, null);
    }
}
