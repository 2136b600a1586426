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

    /** The pseudo-stage a source reports first, so a job knows its documents before any stage runs. */
    public static final String ACCEPTED = "accepted";

    /** What every source (REST, CLI, MCP, crawler) publishes for a document before the document itself. */
    public static StageCompleted accepted(DocumentArrived document) {
        return new StageCompleted(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), document.documentId(),
                document.jobId(), document.collection(), ACCEPTED, STATUS, 0);
    }
}
