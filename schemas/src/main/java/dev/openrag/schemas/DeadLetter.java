package dev.openrag.schemas;

/**
 * An input a stage could not process ({@link Topics#INGEST_DLQ}), kept whole with the reason so
 * nothing is dropped silently. Envelope fields may be null when the original was not even JSON.
 */
public record DeadLetter(
        int schemaVersion,
        String eventId,
        String documentId,
        String jobId,
        String collection,
        String stage,
        String reason,
        String originalTopic,
        String originalEvent) implements EventEnvelope {
}
