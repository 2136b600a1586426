package dev.openrag.schemas;

/**
 * A stage gave up on a document ({@link Topics#INGEST_STATUS}); {@code status} is always "failed";
 * {@code timing} (optional) as in {@link StageCompleted}.
 */
public record StageFailed(
        int schemaVersion,
        String eventId,
        String documentId,
        String jobId,
        String collection,
        String stage,
        String status,
        String reason,
        Source source,
        StageTiming timing) implements EventEnvelope {

    public static final String STATUS = "failed";

    /** Without timing (a document refused before a stage ran). */
    public StageFailed(int schemaVersion, String eventId, String documentId, String jobId, String collection, String stage,
                       String status, String reason, Source source) {
        this(schemaVersion, eventId, documentId, jobId, collection, stage, status, reason, source, null);
    }
}
