package dev.openrag.schemas;

/** A stage gave up on a document ({@link Topics#INGEST_STATUS}); {@code status} is always "failed". */
public record StageFailed(
        int schemaVersion,
        String eventId,
        String documentId,
        String jobId,
        String collection,
        String stage,
        String status,
        String reason,
        Source source) implements EventEnvelope {

    public static final String STATUS = "failed";
}
