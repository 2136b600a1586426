package dev.openrag.schemas;

/** A stage finished a document ({@link Topics#INGEST_STATUS}); {@code status} is always "completed". */
public record StageCompleted(
        int schemaVersion,
        String eventId,
        String documentId,
        String jobId,
        String collection,
        String stage,
        String status,
        int chunks) implements EventEnvelope {

    public static final String STATUS = "completed";
}
