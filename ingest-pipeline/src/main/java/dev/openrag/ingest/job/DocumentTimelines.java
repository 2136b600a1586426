package dev.openrag.ingest.job;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.openrag.schemas.StageTiming;

/**
 * Each document's way through the pipeline, as its status events tell it: one step per stage (the
 * latest, should a stage run again after a crash) with the instance, start, end, attempts, wait and
 * outcome, and the journey's trace id. Built from the status topic, which every instance reads whole
 * at start, so every instance answers the same and a restart loses nothing. The latest job of a
 * document is kept; at most {@value #MAX_DOCUMENTS} documents, the least recently updated dropped.
 */
@ApplicationScoped
public class DocumentTimelines {

    /** About 2 kB a document: the timelines of the last 10,000 documents take some 20 MB. */
    static final int MAX_DOCUMENTS = 10_000;

    /** {@code GET /api/documents/{id}/timeline}. */
    public record Timeline(String documentId, String collection, String jobId, String traceId, List<Step> stages) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Step(String stage, String instance, String startedAt, String finishedAt, int attempts, long waitedMs,
                       String outcome, String reason) {
    }

    private record Journey(String jobId, String traceId, Map<String, Step> steps) {
    }

    private final Map<String, Journey> journeys = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Journey> eldest) {
            return size() > MAX_DOCUMENTS;
        }
    };

    /** A stage's status event for a document: its step replaces an earlier one of the same stage; a new job starts afresh. */
    synchronized void record(String collection, String documentId, String jobId, String stage, StageTiming timing, String outcome,
                             String reason) {
        if (timing == null || collection == null || documentId == null) {
            return; // an event from before timelines, or of no document
        }
        String key = collection + "/" + documentId;
        Journey journey = journeys.get(key);
        if (journey == null || !journey.jobId().equals(jobId) && "accepted".equals(stage)) {
            journey = new Journey(jobId, timing.traceId(), new LinkedHashMap<>());
            journeys.put(key, journey);
        } else if (!journey.jobId().equals(jobId)) {
            return; // a late event of a job the document has moved on from
        }
        journey.steps().put(stage, new Step(stage, timing.instance(), timing.startedAt(), timing.finishedAt(), timing.attempts(),
                timing.waitedMs(), outcome, reason));
    }

    public synchronized Optional<Timeline> of(String collection, String documentId) {
        Journey journey = journeys.get(collection + "/" + documentId);
        if (journey == null) {
            return Optional.empty();
        }
        List<Step> steps = new ArrayList<>(journey.steps().values());
        steps.sort(Comparator.comparing((Step step) -> step.startedAt() == null ? Instant.MIN : Instant.parse(step.startedAt()))
                .thenComparing(step -> step.finishedAt() == null ? Instant.MIN : Instant.parse(step.finishedAt())));
        return Optional.of(new Timeline(documentId, collection, journey.jobId(), journey.traceId(), List.copyOf(steps)));
    }
}
