package dev.openrag.ingest.job;

import java.util.List;
import java.util.Map;

/** {@code GET /api/jobs/{id}} (ARCHITECTURE §5). */
public record JobStatus(
        String jobId,
        String state,
        Documents documents,
        Map<String, StageCount> stages,
        List<Failure> failures,
        List<Warning> warnings) {

    public static final String RUNNING = "running";
    public static final String COMPLETED = "completed";
    public static final String COMPLETED_WITH_ERRORS = "completed_with_errors";
    public static final String FAILED = "failed";

    public record Documents(int total, int done, int failed) {
    }

    /** Documents done and failed at a stage, and the chunks of the done ones. */
    public record StageCount(int done, int failed, int chunks) {
    }

    public record Failure(String documentId, String source, String stage, String reason) {
    }

    /** A document that completed, but not in full (e.g. an invalid OpenAPI spec indexed as plain text). */
    public record Warning(String documentId, String stage, String message) {
    }

    public boolean finished() {
        return !RUNNING.equals(state);
    }
}
