package dev.openrag.knowledge.tracing;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.smallrye.reactive.messaging.TracingMetadata;

/**
 * OpenTelemetry across the apps' steps and the Kafka hops.
 *
 * <p>W3C trace context rides in each record's headers ({@code traceparent}). The Kafka connector writes it for an
 * outgoing message, as the child of the context {@link #carryingContext} hands it (explicitly: an emitter's send may
 * run on another thread than the caller's); a stage reads it back with {@link #parentOf}. So one document's upload,
 * stages and store writes form one trace.
 *
 * <p>With the SDK off (the default: {@code quarkus.otel.sdk.disabled=true} unless {@code OTEL_SDK_DISABLED=false})
 * the OpenTelemetry instance is the no-op one: no span is recorded, nothing is written to headers, and every call
 * here costs next to nothing.
 */
public final class Tracing {

    private static final TextMapGetter<Headers> KAFKA_HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Headers headers) {
            return () -> java.util.Arrays.stream(headers.toArray()).map(Header::key).iterator();
        }

        @Override
        public String get(Headers headers, String key) {
            if (headers == null) {
                return null;
            }
            Header header = headers.lastHeader(key);
            return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
        }
    };

    private Tracing() {
    }

    /** The message, carrying the current context: the connector's publish span becomes its child and goes into the headers. */
    public static <T> Message<T> carryingContext(Message<T> message) {
        return message.addMetadata(TracingMetadata.withCurrent(Context.current()));
    }

    /** The context a record's headers carry ({@code traceparent}, {@code tracestate}); the root context when none. */
    public static Context parentOf(OpenTelemetry openTelemetry, Headers headers) {
        return openTelemetry.getPropagators().getTextMapPropagator().extract(Context.root(), headers, KAFKA_HEADERS);
    }

    /** The current trace's id (32 hex digits), or null when no span is recording one (the SDK is off). */
    public static String currentTraceId() {
        SpanContext context = Span.current().getSpanContext();
        return context.isValid() ? context.getTraceId() : null;
    }

    /** Runs {@code work} in a child span of the current one named {@code name}; a failure is recorded on the span. */
    public static <T> T inSpan(Tracer tracer, String name, Supplier<T> work) {
        Span span = tracer.spanBuilder(name).startSpan();
        try (Scope ignored = span.makeCurrent()) {
            return work.get();
        } catch (RuntimeException | Error e) {
            span.recordException(e);
            span.setStatus(StatusCode.ERROR, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
            throw e;
        } finally {
            span.end();
        }
    }
}
