package dev.openrag.schemas;

import java.util.List;

/**
 * A stage finished a document ({@link Topics#INGEST_STATUS}); {@code status} is always "completed".
 * {@code warnings} (optional) name what the stage could not do while still completing the
 * document, e.g. an OpenAPI spec that failed to parse and was indexed as plain text.
 * {@code usage} (optional) is what the stage's LLM calls cost for this document, and {@code model}
 * ("provider:model") the model that spent it. {@code timing} (optional): when and where the stage
 * worked on it, for the document's timeline.
 */
public record StageCompleted(
        int schemaVersion,
        String eventId,
        String documentId,
        String jobId,
        String collection,
        String stage,
        String status,
        int chunks,
        List<String> warnings,
        TokenUsage usage,
        String model,
        StageTiming timing) implements EventEnvelope {

    public static final String STATUS = "completed";

    /** The pseudo-stage a source reports first, so a job knows its documents before any stage runs. */
    public static final String ACCEPTED = "accepted";

    /** Without LLM usage (most stages). */
    public StageCompleted(int schemaVersion, String eventId, String documentId, String jobId, String collection, String stage,
                          String status, int chunks, List<String> warnings) {
        this(schemaVersion, eventId, documentId, jobId, collection, stage, status, chunks, warnings, null, null, null);
    }

    /**
     * What every source (REST, CLI, MCP, crawler) publishes for a document before the document itself, naming the
     * recorded trace it is published in ({@code traceId}; null when none is recorded: the id derived from job and document).
     */
    public static StageCompleted accepted(DocumentArrived document, String traceId) {
        return new StageCompleted(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), document.documentId(),
                document.jobId(), document.collection(), ACCEPTED, STATUS, 0, null, null, null,
                new StageTiming(null, java.time.Instant.now().toString(), java.time.Instant.now().toString(), 0, 0,
                        traceId != null ? traceId : StageTiming.traceId(document.jobId(), document.documentId())));
    }
}
