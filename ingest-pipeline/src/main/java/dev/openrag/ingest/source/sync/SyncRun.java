package dev.openrag.ingest.source.sync;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One run of a source: what it found against the last synced state, and how it ended.
 *
 * @param state    {@code queued} (asked for while another run of the source runs), {@code running}, {@code completed} (its documents went through the pipeline), {@code failed} (the
 *                 source could not be read: nothing changed), {@code blocked} (it would delete more than half of the
 *                 source's documents; nothing changed), or {@code dry-run} (what a run would do; nothing changed)
 * @param jobId    the ingest job of the added, changed and deleted documents; null when nothing changed
 * @param refused  files left out, each with its reason (unreadable, too large, unrecognised binary, ...)
 * @param commit   git only: the commit synced
 * @param allowMassDelete whether this run was asked with {@code allowMassDelete} (each run keeps its own options)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SyncRun(String runId, String state, int added, int changed, int deleted, int unchanged, List<Refused> refused,
                      String jobId, String commit, String error, Instant startedAt, Instant finishedAt, boolean allowMassDelete) {

    public static final String QUEUED = "queued";
    public static final String RUNNING = "running";
    public static final String COMPLETED = "completed";
    public static final String FAILED = "failed";
    public static final String BLOCKED = "blocked";
    /** A run asked with {@code dryRun}: what a run would do now; nothing was changed. */
    public static final String DRY_RUN = "dry-run";

    /** A file the run left out, and why. */
    public record Refused(String path, String reason) {
    }

    static SyncRun queued(String runId, boolean allowMassDelete) {
        return new SyncRun(runId, QUEUED, 0, 0, 0, 0, List.of(), null, null, null, null, null, allowMassDelete);
    }

    static SyncRun started(String runId, boolean allowMassDelete) {
        return new SyncRun(runId, RUNNING, 0, 0, 0, 0, List.of(), null, null, null, Instant.now(), null, allowMassDelete);
    }

    /** Whether the run is over (it will not change any more). */
    public boolean over() {
        return !QUEUED.equals(state) && !RUNNING.equals(state);
    }

    SyncRun ended(String endState, String reason) {
        return new SyncRun(runId, endState, added, changed, deleted, unchanged, refused, jobId, commit, reason,
                startedAt == null ? Instant.now() : startedAt, Instant.now(), allowMassDelete);
    }

    SyncRun counted(int addedFiles, int changedFiles, int deletedFiles, int unchangedFiles, List<Refused> refusedFiles,
                    String job, String syncedCommit) {
        return new SyncRun(runId, state, addedFiles, changedFiles, deletedFiles, unchangedFiles, List.copyOf(refusedFiles), job,
                syncedCommit, error, startedAt, finishedAt, allowMassDelete);
    }
}
