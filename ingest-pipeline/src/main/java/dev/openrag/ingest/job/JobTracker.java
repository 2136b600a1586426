package dev.openrag.ingest.job;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.ingest.stage.StageWaits;
import dev.openrag.ingest.stage.Stages;
import dev.openrag.knowledge.runtime.Prices;
import dev.openrag.schemas.EventCodec;
import dev.openrag.schemas.InvalidEventException;
import dev.openrag.schemas.StageCompleted;
import dev.openrag.schemas.StageFailed;
import dev.openrag.schemas.TokenUsage;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;

/**
 * Job progress, rebuilt from openrag.ingest.status. Each app start reads the topic from the
 * beginning with a fresh consumer group (see application.properties), so jobs survive restarts
 * with Kafka as their only store, and several app instances all see every job.
 */
@ApplicationScoped
public class JobTracker implements JobSpend {

    private static final Logger LOG = Logger.getLogger(JobTracker.class);

    private final Map<String, Job> jobs = new ConcurrentHashMap<>();
    private final AtomicLong ticks = new AtomicLong();
    private final BroadcastProcessor<JobStatus> updates = BroadcastProcessor.create();
    private final EventCodec codec;
    private final StageWaits waits;
    private final ObjectMapper mapper = new ObjectMapper();

    private final List<String> finalStages;
    private final List<String> deleteStages;
    private final Prices prices;

    private final DocumentTimelines timelines;

    public JobTracker(EventCodec codec, StageWaits waits,
                      @ConfigProperty(name = "openrag.vectors.backend", defaultValue = "neo4j") String vectorBackend,
                      Prices prices, DocumentTimelines timelines) {
        this.timelines = timelines;
        this.codec = codec;
        this.waits = waits;
        this.prices = prices;
        this.finalStages = Stages.finalStages(vectorBackend);
        this.deleteStages = Stages.deleteStages(vectorBackend);
    }

    /**
     * Makes a new job visible at once in this instance (the status topic catches up asynchronously).
     * {@code collection} null: the documents' own status events tell.
     */
    public void register(String jobId, String collection, List<String> documentIds) {
        Job job = job(jobId);
        job.in(collection);
        documentIds.forEach(job::accept);
        publish(job);
    }

    /** Makes the job wait for these documents' deletions too (a sync run deletes what its source lost). */
    public void deleting(String jobId, String collection, List<String> documentIds) {
        Job job = job(jobId);
        job.in(collection);
        documentIds.forEach(job::deleting);
        publish(job);
    }

    /** Records a document refused before it entered the pipeline (it also went to the dead-letter topic). */
    public void rejected(String jobId, String documentId, String source, String stage, String reason) {
        Job job = job(jobId);
        job.failed(stage, documentId, source, reason);
        publish(job);
    }

    @Incoming("status-in")
    public void onStatus(String json) {
        try {
            JsonNode tree = mapper.readTree(json);
            String status = tree.path("status").asText();
            if (StageFailed.STATUS.equals(status)) {
                StageFailed failed = codec.fromJson(json, StageFailed.class);
                Job job = job(failed.jobId());
                job.in(failed.collection());
                job.failed(failed.stage(), failed.documentId(), failed.source() == null ? null : failed.source().uri(), failed.reason());
                timelines.record(failed.collection(), failed.documentId(), failed.jobId(), failed.stage(), failed.timing(),
                        StageFailed.STATUS, failed.reason());
                publish(job);
            } else {
                StageCompleted completed = codec.fromJson(json, StageCompleted.class);
                Job job = job(completed.jobId());
                job.in(completed.collection());
                if (Stages.ACCEPTED.equals(completed.stage())) {
                    job.accept(completed.documentId());
                } else {
                    job.completed(completed.stage(), completed.documentId(), completed.chunks(), completed.warnings(),
                            completed.model(), completed.usage());
                }
                timelines.record(completed.collection(), completed.documentId(), completed.jobId(), completed.stage(),
                        completed.timing(), StageCompleted.STATUS, null);
                publish(job);
            }
        } catch (InvalidEventException | java.io.IOException e) {
            LOG.warnf("ignoring an invalid status event: %s", e.getMessage());
        }
    }

    public Optional<JobStatus> status(String jobId) {
        return Optional.ofNullable(jobs.get(jobId)).map(this::statusOf);
    }

    @Override
    public Optional<JobStatus.Usage> spent(String jobId) {
        return Optional.ofNullable(jobs.get(jobId)).map(job -> usage(job.spent()));
    }

    /** The collections a job's documents went to (empty until one is known). */
    public Optional<Set<String>> collections(String jobId) {
        return Optional.ofNullable(jobs.get(jobId)).map(Job::collections);
    }

    /** A job's collections, sorted, and its status. */
    public record Recent(List<String> collections, JobStatus status) {
    }

    /** The {@code limit} jobs changed last, newest first, among those whose collections {@code visible} accepts. */
    public List<Recent> recent(int limit, Predicate<Set<String>> visible) {
        return jobs.values().stream().filter(job -> visible.test(job.collections()))
                .sorted(Comparator.comparingLong((Job job) -> job.changed()).reversed()).limit(limit)
                .map(job -> new Recent(job.collections().stream().sorted().toList(), statusOf(job))).toList();
    }

    /** The job's status now, then at every change, completing after the first finished status. */
    public Multi<JobStatus> follow(String jobId) {
        return Multi.createFrom().emitter(emitter -> {
            Optional<JobStatus> now = status(jobId);
            now.ifPresent(emitter::emit);
            if (now.map(JobStatus::finished).orElse(false)) {
                emitter.complete();
                return;
            }
            var subscription = updates.filter(update -> update.jobId().equals(jobId)).subscribe().with(update -> {
                emitter.emit(update);
                if (update.finished()) {
                    emitter.complete();
                }
            });
            emitter.onTermination(subscription::cancel);
        });
    }

    private Job job(String jobId) {
        return jobs.computeIfAbsent(jobId, id -> new Job(id, finalStages, deleteStages));
    }

    private void publish(Job job) {
        job.changed(ticks.incrementAndGet());
        updates.onNext(statusOf(job));
    }

    private JobStatus statusOf(Job job) {
        return job.status().withWaits(waits.waiting()).withUsage(usage(job.spent()));
    }

    /** The job's tokens in all, per model and stage, and their cost when every model that spent some has a price. */
    JobStatus.Usage usage(List<Job.Spend> spent) {
        if (spent.isEmpty()) {
            return null;
        }
        Map<String, TokenUsage> byModel = new LinkedHashMap<>();
        Map<String, TokenUsage> byStage = new LinkedHashMap<>();
        spent.forEach(spend -> {
            byModel.merge(spend.model(), spend.usage(), TokenUsage::plus);
            byStage.merge(spend.stage(), spend.usage(), TokenUsage::plus);
        });
        TokenUsage total = byModel.values().stream().reduce(TokenUsage.NONE, TokenUsage::plus);
        Double cost = 0.0;
        for (Map.Entry<String, TokenUsage> model : byModel.entrySet()) {
            Optional<Double> price = prices.cost(model.getKey(), model.getValue());
            if (price.isPresent()) {
                cost += price.get();
            } else if (!prices.free(model.getKey())) {
                cost = null;
                break;
            }
        }
        return new JobStatus.Usage(total.calls(), total.inputTokens(), total.outputTokens(), total.cachedInputTokens(), cost,
                byModel, byStage);
    }
}
