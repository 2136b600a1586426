package dev.openrag.ingest.job;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.openrag.schemas.TokenUsage;

/** {@code GET /api/jobs/{id}} (ARCHITECTURE §5); {@code usage} only once an LLM was called. */
public record JobStatus(
        String jobId,
        String state,
        Documents documents,
        Map<String, StageCount> stages,
        List<Failure> failures,
        List<Warning> warnings,
        @JsonInclude(JsonInclude.Include.NON_NULL) Usage usage,
        @JsonInclude(JsonInclude.Include.NON_NULL) Deletions deletions) {

    public static final String RUNNING = "running";
    public static final String COMPLETED = "completed";
    public static final String COMPLETED_WITH_ERRORS = "completed_with_errors";
    public static final String FAILED = "failed";

    public record Documents(int total, int done, int failed) {
    }

    /** Documents the job deletes (a sync run's removed files): done once every store deleted them. */
    public record Deletions(int total, int done, int failed) {
    }

    /**
     * Documents done and failed at a stage, and the chunks of the done ones; {@code waiting} while
     * the stage waits for an engine ({@code "opensearch unreachable since 2026-11-23T20:31:02Z"}).
     */
    public record StageCount(int done, int failed, int chunks, @JsonInclude(JsonInclude.Include.NON_NULL) String waiting) {

        StageCount(int done, int failed, int chunks) {
            this(done, failed, chunks, null);
        }
    }

    public record Failure(String documentId, String source, String stage, String reason) {
    }

    /** A document that completed, but not in full (e.g. an invalid OpenAPI spec indexed as plain text). */
    public record Warning(String documentId, String stage, String message) {
    }

    /**
     * The LLM tokens the job spent, in all, per model and per stage (a stage is a role:
     * contextualize, extract-graph, embed for summaries); {@code cost} is their price by
     * {@code openrag.llm.prices.*}, null when a hosted model spent tokens and has no price.
     */
    public record Usage(long calls, long inputTokens, long outputTokens, long cachedInputTokens,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Double cost, Map<String, TokenUsage> byModel,
                        Map<String, TokenUsage> byStage) {
    }

    JobStatus withUsage(Usage spent) {
        return new JobStatus(jobId, state, documents, stages, failures, warnings, spent, deletions);
    }

    /** This status with the stages' current waits shown, while the job runs (a finished job waits for nothing). */
    JobStatus withWaits(Map<String, String> waits) {
        if (finished() || waits.isEmpty()) {
            return this;
        }
        Map<String, StageCount> shown = new LinkedHashMap<>(stages);
        waits.forEach((stage, wait) -> {
            StageCount count = shown.getOrDefault(stage, new StageCount(0, 0, 0));
            shown.put(stage, new StageCount(count.done(), count.failed(), count.chunks(), wait));
        });
        return new JobStatus(jobId, state, documents, shown, failures, warnings, usage, deletions);
    }

    public boolean finished() {
        return !RUNNING.equals(state);
    }
}
