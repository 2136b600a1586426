package dev.openrag.schemas;

import java.util.List;
import java.util.Map;

/** Chunks with context and vector ({@link Topics#CHUNKS_EMBEDDED}); what the three sinks consume. */
public record ChunksEmbedded(
        int schemaVersion,
        String eventId,
        String documentId,
        String jobId,
        String collection,
        Source source,
        String title,
        String contentHash,
        String embeddingModel,
        int dimension,
        List<Chunk> chunks,
        Map<String, Object> metadata,
        List<SectionSummary> sections,
        Long arrivedAt) implements EventEnvelope, HasSource, VersionedEvent {

    /** An event without {@link #arrivedAt}, as written before versions were carried. */
    public ChunksEmbedded(int schemaVersion, String eventId, String documentId, String jobId, String collection, Source source, String title, String contentHash, String embeddingModel, int dimension, List<Chunk> chunks, Map<String, Object> metadata, List<SectionSummary> sections) {
        this(schemaVersion, eventId, documentId, jobId, collection, source, title, contentHash, embeddingModel, dimension, chunks, metadata, sections, null);
    }
}
