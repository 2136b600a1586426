package dev.openrag.ingest.job;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.openrag.ingest.stage.Stages;
import dev.openrag.schemas.TokenUsage;

/**
 * Progress of one job, folded from status events. Sets, not counters: a redelivered event
 * (at-least-once) changes nothing. A document is done when every final sink completed it,
 * failed as soon as any stage gave up on it.
 */
final class Job {

    private final String jobId;
    private final List<String> finalStages;
    private final List<String> deleteStages;
    private final Set<String> deletions = new LinkedHashSet<>();
    private final Set<String> documents = new LinkedHashSet<>();
    private final Map<String, Map<String, Integer>> completedByStage = new HashMap<>(); // stage -> document -> chunks
    private final Map<String, Set<String>> failedByStage = new HashMap<>();
    private final Map<String, JobStatus.Failure> failures = new LinkedHashMap<>();
    private final Set<JobStatus.Warning> warnings = new LinkedHashSet<>();
    private final Set<String> collections = new HashSet<>(); // who may see the job: keys granted all of them
    private final Map<String, Spend> spent = new LinkedHashMap<>(); // "stage document" -> LLM tokens (a redelivery replaces)
    private volatile long changed; // the tracker's tick at the job's last change: recent jobs come first

    /** LLM tokens one stage spent on one document, and the model that spent them. */
    record Spend(String stage, String model, TokenUsage usage) {
    }

    Job(String jobId, List<String> finalStages, List<String> deleteStages) {
        this.jobId = jobId;
        this.finalStages = finalStages;
        this.deleteStages = deleteStages;
    }

    synchronized void in(String collection) {
        if (collection != null) {
            collections.add(collection);
        }
    }

    void changed(long tick) {
        changed = tick;
    }

    long changed() {
        return changed;
    }

    synchronized Set<String> collections() {
        return Set.copyOf(collections);
    }

    synchronized void accept(String documentId) {
        documents.add(documentId);
        completedByStage.computeIfAbsent(Stages.ACCEPTED, s -> new HashMap<>()).put(documentId, 0);
    }

    /** A document the job deletes: the job waits until every store deleted it. */
    synchronized void deleting(String documentId) {
        deletions.add(documentId);
    }

    /** Any event names a document of the job: documents from external producers are never "accepted". */
    synchronized void completed(String stage, String documentId, int chunks, List<String> stageWarnings, String model,
                                TokenUsage usage) {
        if (deleteStages.contains(stage)) {
            deletions.add(documentId); // a deletion is not a document the job ingests
        } else {
            documents.add(documentId);
        }
        if (usage != null && !usage.isEmpty()) {
            spent.put(stage + " " + documentId, new Spend(stage, model == null ? "unknown" : model, usage));
        }
        if (stageWarnings != null) {
            stageWarnings.forEach(message -> warnings.add(new JobStatus.Warning(documentId, stage, message)));
        }
        completedByStage.computeIfAbsent(stage, s -> new HashMap<>()).put(documentId, chunks);
    }

    synchronized void failed(String stage, String documentId, String source, String reason) {
        if (deleteStages.contains(stage)) {
            deletions.add(documentId);
        } else {
            documents.add(documentId);
        }
        failedByStage.computeIfAbsent(stage, s -> new HashSet<>()).add(documentId);
        failures.putIfAbsent(documentId, new JobStatus.Failure(documentId, source, stage, reason));
    }

    /** What the job's stages spent, each stage on each document once. */
    synchronized List<Spend> spent() {
        return List.copyOf(spent.values());
    }

    synchronized JobStatus status() {
        int done = 0;
        for (String document : documents) {
            if (!failures.containsKey(document) && finalStages.stream()
                    .allMatch(stage -> completedByStage.getOrDefault(stage, Map.of()).containsKey(document))) {
                done++;
            }
        }
        int deletionsFailed = (int) deletions.stream().filter(failures::containsKey).count();
        int failed = failures.size() - deletionsFailed;
        int deleted = (int) deletions.stream().filter(document -> !failures.containsKey(document) && deleteStages.stream()
                .allMatch(stage -> completedByStage.getOrDefault(stage, Map.of()).containsKey(document))).count();
        String state;
        if ((documents.isEmpty() && deletions.isEmpty()) || done + failed < documents.size()
                || deleted + deletionsFailed < deletions.size()) {
            state = JobStatus.RUNNING;
        } else if (failed + deletionsFailed == 0) {
            state = JobStatus.COMPLETED;
        } else {
            state = done + deleted == 0 ? JobStatus.FAILED : JobStatus.COMPLETED_WITH_ERRORS;
        }
        Map<String, JobStatus.StageCount> stages = new LinkedHashMap<>();
        Set<String> names = new LinkedHashSet<>(Stages.ALL);
        names.addAll(completedByStage.keySet());
        names.addAll(failedByStage.keySet());
        for (String stage : names) {
            Map<String, Integer> stageDone = completedByStage.getOrDefault(stage, Map.of());
            int stageFailed = failedByStage.getOrDefault(stage, Set.of()).size();
            int chunks = stageDone.values().stream().mapToInt(Integer::intValue).sum();
            stages.put(stage, new JobStatus.StageCount(stageDone.size(), stageFailed, chunks));
        }
        return new JobStatus(jobId, state, new JobStatus.Documents(documents.size(), done, failed), stages,
                List.copyOf(failures.values()), List.copyOf(warnings), null,
                deletions.isEmpty() ? null : new JobStatus.Deletions(deletions.size(), deleted, deletionsFailed));
    }
}
