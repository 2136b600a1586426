package dev.openrag.ingest.stage;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import dev.openrag.knowledge.tracing.Tracing;
import dev.openrag.schemas.DeadLetter;
import dev.openrag.schemas.DocumentDeleted;
import dev.openrag.schemas.EventCodec;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.HasSource;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.InvalidEventException;
import dev.openrag.schemas.Source;
import dev.openrag.schemas.StageCompleted;
import dev.openrag.schemas.StageFailed;
import dev.openrag.schemas.StageTiming;
import dev.openrag.schemas.TokenUsage;
import dev.openrag.schemas.VersionedEvent;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;

/**
 * What every stage and sink does around its own work: decode and validate the input event,
 * run the work, publish outputs and a {@link StageCompleted}, and on failure a {@link DeadLetter}
 * plus a {@link StageFailed}, so nothing is dropped silently. The input is acknowledged (its
 * offset committed) only when the handler returns, that is after every output was acknowledged.
 *
 * <p>Two kinds of failure, two answers:
 * <ul>
 * <li>An engine outage ({@link Outages}: a store, the broker or a model server unreachable, timing
 * out, answering 5xx) is not the document's fault. The stage waits: it retries with capped
 * exponential backoff for as long as it takes ({@code openrag.ingest.retry.give-up-after}, default
 * none), its consumer is paused meanwhile by the connector's backpressure (the record is not
 * acknowledged, no further records are requested), and {@link StageWaits} shows the wait on jobs
 * and readiness. Publishing a dead letter or a status waits for the broker the same way.
 * An engine that answers but refuses writes (an OpenSearch 429 or read-only block, a Neo4j
 * transient or read-only error) is an outage too: the wait names the engine and its reason.
 * Only a document that fails while the engine takes other writes is the document's failure: after
 * {@code openrag.ingest.retry.refused-while-up-attempts} failures in a row while the engine answers
 * its probe, a write that changes nothing is tried ({@link EngineLiveness#acceptsWrites}); taken, the
 * document is dead-lettered so its partition moves on; refused too, the stage keeps waiting.</li>
 * <li>Anything else is the document's: rejected content and invalid events go to the dead-letter
 * topic at once; an unexpected error is retried a few times first (it may be a passing one), then
 * dead-lettered with its reason.</li>
 * </ul>
 * Each run is a span of the document's trace ({@link Tracing}): the record's {@code traceparent} header names its
 * parent, and what the stage publishes carries the span on; the timeline's trace id is that trace's.
 *
 * <p>The connector's own stall detection ({@code throttled.unprocessed-record-max-age.ms}) is off,
 * since a stage waiting for an engine is not stalled; {@link StageWaits} reports a stage busy on
 * one event for too long instead.
 */
@ApplicationScoped
public class StageRunner {

    private static final Logger LOG = Logger.getLogger(StageRunner.class);
    /** This instance in timelines: host and process id. */
    static final String INSTANCE = instance();

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

    /** Chunks handled, warnings (empty when all went well), and the LLM tokens spent and by which model (null: none). */
    public record Outcome(int chunks, List<String> warnings, TokenUsage usage, String model) {

        public Outcome(int chunks, List<String> warnings) {
            this(chunks, warnings, null, null);
        }
    }

    /**
     * The time the document version of the record a stage is working on arrived, while its work runs on
     * this thread ({@link #versionTime(ConsumerRecord, EventEnvelope)}): the stage's outputs carry it on
     * as their timestamp, and a replayed or reprocessed older one is told from a newer.
     */
    private static final ThreadLocal<Long> INPUT_TIMESTAMP = new ThreadLocal<>();

    /**
     * The time the record's document version arrived (its timestamp); now for a record without one or
     * with one in the future (a producer's clock ahead, or a forged time, must not outrank later versions).
     */
    public static long arrivedAt(ConsumerRecord<?, ?> record) {
        long now = System.currentTimeMillis();
        return record.timestamp() >= 0 ? Math.min(record.timestamp(), now) : now;
    }

    /**
     * When the version an event belongs to arrived: the time the parse stage fixed and every event since
     * carries ({@link VersionedEvent#arrivedAt}), the same on every host whatever its clock; for a delete, the
     * time it was accepted ({@link DocumentDeleted#deletedAt}), fixed once there likewise, but never later than now
     * (the deletes topic is open to any producer: a delete dated in the future would outrank every later version of
     * its document, as a record's future timestamp would); for an event without one (an arrival, an event written
     * before it was carried), {@link #arrivedAt} of its record.
     */
    public static long versionTime(ConsumerRecord<?, ?> record, EventEnvelope event) {
        if (event instanceof VersionedEvent versioned && versioned.arrivedAt() != null) {
            return versioned.arrivedAt();
        }
        if (event instanceof DocumentDeleted deleted && deleted.deletedAt() != null) {
            return Math.min(deleted.deletedAt(), System.currentTimeMillis());
        }
        return arrivedAt(record);
    }

    /**
     * The version time the stage's outputs carry on, while its work runs on this thread
     * ({@link #versionTime(ConsumerRecord, EventEnvelope)} of its input, as the stage read it); otherwise
     * {@link #arrivedAt} now.
     */
    public static long versionTime(ConsumerRecord<?, ?> record) {
        Long carried = INPUT_TIMESTAMP.get();
        return carried != null ? carried : arrivedAt(record);
    }

    private final EventCodec codec;
    private final MutinyEmitter<String> status;
    private final MutinyEmitter<String> deadLetters;
    private final MeterRegistry metrics;
    private final StageWaits waits;
    private final RetrySettings retry;
    private final EngineLiveness liveness;
    private final OpenTelemetry openTelemetry;
    private final Tracer tracer;
    private volatile boolean shuttingDown;

    public StageRunner(EventCodec codec, @Channel("status-out") MutinyEmitter<String> status,
                       @Channel("dlq-out") MutinyEmitter<String> deadLetters, MeterRegistry metrics, StageWaits waits,
                       RetrySettings retry, EngineLiveness liveness, OpenTelemetry openTelemetry, Tracer tracer) {
        this.codec = codec;
        this.status = status;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
        this.waits = waits;
        this.retry = retry;
        this.liveness = liveness;
        this.openTelemetry = openTelemetry;
        this.tracer = tracer;
    }

    /** {@code openrag_llm_tokens_total{stage, collection, model, kind}}: input, output and cached input tokens. */
    private void countTokens(String stage, String collection, Outcome done) {
        if (done.usage() == null || done.usage().isEmpty()) {
            return;
        }
        String model = done.model() == null ? "unknown" : done.model();
        metrics.counter("openrag.llm.tokens", "stage", stage, "collection", collection, "model", model, "kind", "input")
                .increment(done.usage().inputTokens());
        metrics.counter("openrag.llm.tokens", "stage", stage, "collection", collection, "model", model, "kind", "output")
                .increment(done.usage().outputTokens());
        metrics.counter("openrag.llm.tokens", "stage", stage, "collection", collection, "model", model, "kind", "cached_input")
                .increment(done.usage().cachedInputTokens());
        metrics.counter("openrag.llm.calls", "stage", stage, "collection", collection, "model", model).increment(done.usage().calls());
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
        waits.started(stage);
        Instant startedAt = Instant.now();
        AtomicInteger attempts = new AtomicInteger();
        AtomicReference<Instant> lastAttempt = new AtomicReference<>(startedAt);
        // this stage's span: a child of the publish span whose context the record's traceparent header carries
        Context parent = Tracing.parentOf(openTelemetry, record.headers());
        Span span = tracer.spanBuilder(stage).setParent(parent).setSpanKind(SpanKind.CONSUMER)
                .setAttribute("messaging.destination.name", record.topic()).startSpan();
        try (Scope ignored = parent.with(span).makeCurrent()) {
            I event;
            try {
                event = codec.fromJson(record.value(), type);
            } catch (InvalidEventException e) {
                reject(stage, record, null, e.getMessage(), null, null);
                return;
            }
            span.setAttribute("openrag.document.id", event.documentId()).setAttribute("openrag.job.id", String.valueOf(event.jobId()))
                    .setAttribute("openrag.collection", String.valueOf(event.collection()));
            // the recorded trace's id; without one (the SDK off), an id every instance derives alike
            String traceId = span.getSpanContext().isValid() ? span.getSpanContext().getTraceId()
                    : StageTiming.traceId(event.jobId(), event.documentId());
            Supplier<StageTiming> timing = () -> new StageTiming(INSTANCE, startedAt.toString(), Instant.now().toString(), attempts.get(),
                    Duration.between(startedAt, lastAttempt.get()).toMillis(), traceId);
            try {
                Outcome outcome = attempt(stage, event.collection(), () -> {
                    attempts.incrementAndGet();
                    lastAttempt.set(Instant.now());
                    long started = System.nanoTime();
                    Outcome done;
                    INPUT_TIMESTAMP.set(versionTime(record, event));
                    try {
                        done = work.process(event);
                    } finally {
                        INPUT_TIMESTAMP.remove();
                    }
                    metrics.timer("openrag.stage.duration", "stage", stage).record(Duration.ofNanos(System.nanoTime() - started));
                    countTokens(stage, event.collection(), done);
                    send(status, event.jobId(), new StageCompleted(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(),
                            event.documentId(), event.jobId(), event.collection(), stage, StageCompleted.STATUS, done.chunks(),
                            done.warnings().isEmpty() ? null : done.warnings(),
                            done.usage() == null || done.usage().isEmpty() ? null : done.usage(),
                            done.usage() == null || done.usage().isEmpty() ? null : done.model(), timing.get()));
                    return done;
                });
                metrics.counter("openrag.stage.documents", "stage", stage, "outcome", "completed").increment();
                metrics.counter("openrag.stage.chunks", "stage", stage).increment(outcome.chunks());
            } catch (RejectedDocument e) {
                reject(stage, record, event, e.getMessage(), sourceOf(event), timing.get());
            } catch (LinkageError e) {
                // a broken installation (missing class, native library): retrying cannot help, and
                // letting it escape would stop the whole channel
                LOG.errorf(e, "%s cannot run: %s", stage, e);
                reject(stage, record, event, stage + " cannot run on this installation: " + e, sourceOf(event), timing.get());
            } catch (RuntimeException e) {
                if (shuttingDown) {
                    // the stores' clients are closing: leave the offset uncommitted, the next start redelivers it
                    throw new IllegalStateException(stage + " stopped by shutdown while processing document "
                            + event.documentId() + "; it will be processed again after the restart", e);
                }
                var outage = Outages.of(e);
                String reason = outage.isPresent()
                        ? stage + " gave up waiting for " + outage.get().engine() + " after "
                                + retry.giveUpAfter().map(Object::toString).orElse("its deadline") + ": " + describe(e)
                        : stage + " failed after " + retry.contentAttempts() + " attempts: " + describe(e);
                LOG.errorf(e, "%s gave up on document %s", stage, event.documentId());
                reject(stage, record, event, reason, sourceOf(event), timing.get());
            }
        } finally {
            span.setAttribute("openrag.attempts", attempts.get());
            span.end();
            waits.finished(stage);
        }
    }

    /**
     * Runs {@code call} until it succeeds: outages are retried with capped exponential backoff until
     * the engine answers (or the configured give-up deadline passes), other failures a few times.
     * Throws the last failure, unwrapped.
     */
    private <T> T attempt(String stage, String collection, Callable<T> work) {
        AtomicInteger refusedWhileUp = new AtomicInteger();
        Callable<T> call = Context.current().wrap(work); // the stage's span goes along to the worker thread
        Uni<T> once = Uni.createFrom().<T>emitter(emitter -> {
            try {
                emitter.complete(call.call());
            } catch (Throwable e) {
                emitter.fail(e);
            }
        }).runSubscriptionOn(Infrastructure.getDefaultExecutor()); // a retry fires on a timer thread: work runs on a worker
        var outageRetry = once
                .onFailure(this::isOutage).invoke(e -> {
                    var outage = Outages.of(e).orElseThrow();
                    waits.waiting(stage, outage.engine(), outage.reason());
                    LOG.warnf("%s waits for %s: %s", stage, outage.engine(), describe(e));
                })
                .onFailure(this::isOutage).transform(e -> refusedWhileUp(stage, collection, e, refusedWhileUp))
                .onFailure(this::isOutage).retry().withBackOff(retry.initialBackoff(), retry.maxBackoff());
        Uni<T> waited = retry.giveUpAfter().isPresent()
                ? outageRetry.expireIn(retry.giveUpAfter().get().toMillis())
                : outageRetry.indefinitely();
        Uni<T> retried = retry.contentAttempts() <= 1 ? waited : waited
                .onFailure(this::isRetriableDocumentFailure).invoke(e -> LOG.warnf("%s failed (%s)", stage, describe(e)))
                .onFailure(this::isRetriableDocumentFailure)
                .retry().withBackOff(retry.initialBackoff(), retry.maxBackoff()).atMost(retry.contentAttempts() - 1L);
        try {
            return retried.await().indefinitely();
        } catch (CompletionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
        }
    }

    /**
     * The failure as it is, while it may be an outage; a {@link RejectedDocument} naming the engine's
     * reason once the engine has answered its probe after this document's last
     * {@code refused-while-up-attempts} failures in a row and then taken a write of the collection's
     * that changes nothing. A refused probe write means every write fails: an outage, the count starts again.
     */
    private Throwable refusedWhileUp(String stage, String collection, Throwable failure, AtomicInteger count) {
        if (retry.refusedWhileUpAttempts() <= 0) {
            return failure;
        }
        var outage = Outages.of(failure).orElseThrow();
        String engine = outage.engine();
        if (outage.refusesEveryWrite()) {
            // a block or a full write queue by its type: the engine's state, never this document's, even when
            // a tiny probe write slips through between rejections under load
            count.set(0);
            return failure;
        }
        if (!liveness.answers(engine).orElse(false)) {
            count.set(0); // a real outage (or no way to tell): wait
            return failure;
        }
        if (count.incrementAndGet() < retry.refusedWhileUpAttempts()) {
            return failure;
        }
        if (!liveness.acceptsWrites(engine, collection).orElse(false)) {
            LOG.warnf("%s: %s refuses every write, not only this document's: waiting", stage, engine);
            count.set(0);
            return failure;
        }
        LOG.warnf("%s: %s refused one document %d times in a row while taking other writes: dead-lettered", stage, engine, count.get());
        return new RejectedDocument(stage + ": " + engine + " refused this document " + count.get()
                + " times in a row while it took other writes (openrag.ingest.retry.refused-while-up-attempts): "
                + describe(failure));
    }

    private boolean isOutage(Throwable failure) {
        return !shuttingDown && Outages.of(failure).isPresent();
    }

    /** An unexpected failure of the document's own (not an outage, not rejected content, not a broken installation): may pass. */
    private boolean isRetriableDocumentFailure(Throwable failure) {
        return !shuttingDown && Outages.of(failure).isEmpty() && !(failure instanceof RejectedDocument) && !(failure instanceof Error);
    }

    /**
     * Sends an event keyed by its document id and waits for the broker's acknowledgement; inside a
     * stage's work, with the input record's timestamp.
     */
    public void emit(MutinyEmitter<String> emitter, EventEnvelope event) {
        send(emitter, event.documentId(), event, INPUT_TIMESTAMP.get());
    }

    private static OutgoingKafkaRecordMetadata<String> keyed(String key, Long timestamp) {
        var metadata = OutgoingKafkaRecordMetadata.<String>builder().withKey(key);
        return (timestamp == null ? metadata : metadata.withTimestamp(Instant.ofEpochMilli(timestamp))).build();
    }

    /** Status events are keyed by job id: one partition per job keeps a job's events in order. */
    public void emitStatus(EventEnvelope statusEvent) {
        send(status, statusEvent.jobId(), statusEvent);
    }

    /**
     * Sends many events keyed by document id ({@code statuses}: by job id) and waits until the broker acknowledged
     * every one: {@value #IN_FLIGHT} at a time in flight rather than one (a 10,000-file sync published in seconds,
     * not minutes), within the emitter's buffer. Order per key holds as for single sends (the producer's own).
     */
    public void emitAll(MutinyEmitter<String> emitter, List<? extends EventEnvelope> events) {
        Long timestamp = INPUT_TIMESTAMP.get();
        sendAll(emitter, events, EventEnvelope::documentId, event -> timestamp);
    }

    /** {@link #emitAll} with each event's own record timestamp (epoch ms), as a source fixes it. */
    public <E extends EventEnvelope> void emitAll(MutinyEmitter<String> emitter, List<E> events,
                                                  java.util.function.ToLongFunction<E> timestamp) {
        sendAll(emitter, events, EventEnvelope::documentId, event -> timestamp.applyAsLong(event));
    }

    /** {@link #emitAll} for status events. */
    public void emitAllStatuses(List<? extends EventEnvelope> statusEvents) {
        sendAll(status, statusEvents, EventEnvelope::jobId, event -> null);
    }

    private static final int IN_FLIGHT = 64;

    /** {@code timestamp}: each event's record timestamp (epoch ms), null for the producer's clock. */
    private <E extends EventEnvelope> void sendAll(MutinyEmitter<String> emitter, List<E> events,
                         java.util.function.Function<EventEnvelope, String> key, java.util.function.Function<E, Long> timestamp) {
        for (int from = 0; from < events.size(); from += IN_FLIGHT) {
            List<io.smallrye.mutiny.Uni<Void>> sends = events.subList(from, Math.min(events.size(), from + IN_FLIGHT)).stream()
                    .map(event -> emitter.sendMessage(Tracing.carryingContext(Message.of(codec.toJson(event))
                            .addMetadata(keyed(key.apply(event), timestamp.apply(event))))))
                    .toList();
            io.smallrye.mutiny.Uni.join().all(sends).andFailFast().await().indefinitely();
        }
    }

    /**
     * Sends once and waits for the broker's acknowledgement. A stage's work that fails here waits
     * for the broker and runs again as a whole; a REST source answers 503.
     */
    private void send(MutinyEmitter<String> emitter, String key, EventEnvelope event) {
        send(emitter, key, event, null);
    }

    /** {@code timestamp}: the record's (epoch ms), null for the producer's clock. */
    private void send(MutinyEmitter<String> emitter, String key, EventEnvelope event, Long timestamp) {
        emitter.sendMessageAndAwait(Tracing.carryingContext(Message.of(codec.toJson(event)).addMetadata(keyed(key, timestamp))));
    }

    private void reject(String stage, ConsumerRecord<String, String> record, EventEnvelope event, String reason, Source source,
                        StageTiming timing) {
        Span.current().setStatus(StatusCode.ERROR, reason);
        LOG.warnf("%s rejected %s from %s: %s", stage, event == null ? "an event (key " + record.key() + ")" : "document " + event.documentId(),
                record.topic(), reason);
        String documentId = event == null ? record.key() : event.documentId();
        // inside a stage the dead letter must get out even if the broker is away just now: wait for it
        attempt(stage, event == null ? null : event.collection(), () -> {
            reportRejected(stage, documentId, event == null ? null : event.jobId(), event == null ? null : event.collection(),
                    reason, record.topic(), record.value(), source, timing);
            return null;
        });
    }

    /**
     * A document given up on: the original goes to the dead-letter topic with the reason, and
     * when it belongs to a job, a {@link StageFailed} puts it into the job's failures.
     */
    public void reportRejected(String stage, String documentId, String jobId, String collection, String reason,
                               String originalTopic, String original, Source source) {
        reportRejected(stage, documentId, jobId, collection, reason, originalTopic, original, source, null);
    }

    private void reportRejected(String stage, String documentId, String jobId, String collection, String reason,
                                String originalTopic, String original, Source source, StageTiming timing) {
        send(deadLetters, documentId == null ? "unknown" : documentId, new DeadLetter(EventEnvelope.CURRENT_SCHEMA_VERSION,
                Ids.newEventId(), documentId, jobId, collection, stage, reason, originalTopic, original == null ? "" : original));
        if (jobId != null && documentId != null && collection != null) {
            emitStatus(new StageFailed(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), documentId, jobId,
                    collection, stage, StageFailed.STATUS, reason, source, timing));
        }
        metrics.counter("openrag.stage.documents", "stage", stage, "outcome", "failed").increment();
    }

    private static String instance() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = "localhost";
        }
        return host + "/" + ProcessHandle.current().pid();
    }

    private static Source sourceOf(EventEnvelope event) {
        return event instanceof HasSource withSource ? withSource.source() : null;
    }

    private static String describe(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

}
