package dev.openrag.ingest.stage;

import java.time.Duration;
import java.util.List;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import dev.openrag.schemas.DeadLetter;
import dev.openrag.schemas.EventCodec;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.HasSource;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.InvalidEventException;
import dev.openrag.schemas.Source;
import dev.openrag.schemas.StageCompleted;
import dev.openrag.schemas.StageFailed;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;

/**
 * What every stage and sink does around its own work: decode and validate the input event,
 * run the work, publish outputs and a {@link StageCompleted}, and on failure a {@link DeadLetter}
 * plus a {@link StageFailed}, so nothing is dropped silently. The input is acknowledged (its
 * offset committed) only when the handler returns, that is after every output was acknowledged.
 * Infrastructure errors are retried with backoff before a document is given up on; rejected
 * content ({@link RejectedDocument}, invalid events) is not.
 */
@ApplicationScoped
public class StageRunner {

    private static final Logger LOG = Logger.getLogger(StageRunner.class);
    private static final List<Duration> RETRY_BACKOFF = List.of(Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofSeconds(9));

    /** The work of one stage on one event; returns the number of chunks it handled (for progress). */
    @FunctionalInterface
    public interface Work<I> {
        int process(I event) throws Exception;
    }

    /** Work that may complete a document with warnings, which its job then shows. */
    @FunctionalInterface
    public interface ReportingWork<I> {
        Outcome process(I event) throws Exception;
    }

    /** Chunks handled and warnings (empty when all went well). */
    public record Outcome(int chunks, List<String> warnings) {
    }

    private final EventCodec codec;
    private final MutinyEmitter<String> status;
    private final MutinyEmitter<String> deadLetters;
    private final MeterRegistry metrics;
    private volatile boolean shuttingDown;

    public StageRunner(EventCodec codec, @Channel("status-out") MutinyEmitter<String> status,
                       @Channel("dlq-out") MutinyEmitter<String> deadLetters, MeterRegistry metrics) {
        this.codec = codec;
        this.status = status;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
    }

    /** Failures after shutdown began are the stores' clients closing, not the document's fault. */
    void onShutdown(@Observes @Priority(1) ShutdownEvent shutdown) {
        shuttingDown = true;
    }

    public <I extends EventEnvelope> void run(String stage, ConsumerRecord<String, String> record, Class<I> type, Work<I> work) {
        runReporting(stage, record, type, event -> new Outcome(work.process(event), List.of()));
    }

    public <I extends EventEnvelope> void runReporting(String stage, ConsumerRecord<String, String> record, Class<I> type,
                                                       ReportingWork<I> work) {
        I event;
        try {
            event = codec.fromJson(record.value(), type);
        } catch (InvalidEventException e) {
            reject(stage, record, null, e.getMessage(), null);
            return;
        }
        for (int attempt = 0; ; attempt++) {
            try {
                long started = System.nanoTime();
                Outcome outcome = work.process(event);
                metrics.timer("openrag.stage.duration", "stage", stage).record(Duration.ofNanos(System.nanoTime() - started));
                publish(status, event.jobId(), new StageCompleted(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(),
                        event.documentId(), event.jobId(), event.collection(), stage, StageCompleted.STATUS, outcome.chunks(),
                        outcome.warnings().isEmpty() ? null : outcome.warnings()));
                metrics.counter("openrag.stage.documents", "stage", stage, "outcome", "completed").increment();
                return;
            } catch (RejectedDocument e) {
                reject(stage, record, event, e.getMessage(), sourceOf(event));
                return;
            } catch (LinkageError e) {
                // a broken installation (missing class, native library): retrying cannot help, and
                // letting it escape would stop the whole channel
                LOG.errorf(e, "%s cannot run: %s", stage, e);
                reject(stage, record, event, stage + " cannot run on this installation: " + e, sourceOf(event));
                return;
            } catch (Exception e) {
                if (shuttingDown) {
                    // the stores' clients are closing: leave the offset uncommitted, the next start redelivers it
                    throw new IllegalStateException(stage + " stopped by shutdown while processing document "
                            + event.documentId() + "; it will be processed again after the restart", e);
                }
                if (attempt >= RETRY_BACKOFF.size()) {
                    LOG.errorf(e, "%s gave up on document %s after %d attempts", stage, event.documentId(), attempt + 1);
                    reject(stage, record, event, stage + " failed after " + (attempt + 1) + " attempts: " + describe(e), sourceOf(event));
                    return;
                }
                LOG.warnf("%s failed on document %s (%s), retrying in %s", stage, event.documentId(), describe(e), RETRY_BACKOFF.get(attempt));
                sleep(RETRY_BACKOFF.get(attempt));
            }
        }
    }

    /** Sends an event keyed by its document id and waits for the broker's acknowledgement. */
    public void emit(MutinyEmitter<String> emitter, EventEnvelope event) {
        publish(emitter, event.documentId(), event);
    }

    /** Status events are keyed by job id: one partition per job keeps a job's events in order. */
    public void emitStatus(EventEnvelope statusEvent) {
        publish(status, statusEvent.jobId(), statusEvent);
    }

    private void publish(MutinyEmitter<String> emitter, String key, EventEnvelope event) {
        emitter.sendMessageAndAwait(Message.of(codec.toJson(event))
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(key).build()));
    }

    private void reject(String stage, ConsumerRecord<String, String> record, EventEnvelope event, String reason, Source source) {
        LOG.warnf("%s rejected %s from %s: %s", stage, event == null ? "an event (key " + record.key() + ")" : "document " + event.documentId(),
                record.topic(), reason);
        reportRejected(stage, event == null ? record.key() : event.documentId(), event == null ? null : event.jobId(),
                event == null ? null : event.collection(), reason, record.topic(), record.value(), source);
    }

    /**
     * A document given up on: the original goes to the dead-letter topic with the reason, and
     * when it belongs to a job, a {@link StageFailed} puts it into the job's failures.
     */
    public void reportRejected(String stage, String documentId, String jobId, String collection, String reason,
                               String originalTopic, String original, Source source) {
        metrics.counter("openrag.stage.documents", "stage", stage, "outcome", "failed").increment();
        publish(deadLetters, documentId == null ? "unknown" : documentId, new DeadLetter(EventEnvelope.CURRENT_SCHEMA_VERSION,
                Ids.newEventId(), documentId, jobId, collection, stage, reason, originalTopic, original == null ? "" : original));
        if (jobId != null && documentId != null && collection != null) {
            emitStatus(new StageFailed(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), documentId, jobId,
                    collection, stage, StageFailed.STATUS, reason, source));
        }
    }

    private static Source sourceOf(EventEnvelope event) {
        return event instanceof HasSource withSource ? withSource.source() : null;
    }

    private static String describe(Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
