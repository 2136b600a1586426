package dev.openrag.knowledge.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;

/** A record's traceparent header is whatever its producer wrote: only a well-formed one becomes a stage's parent. */
class TracingTest {

    private static final OpenTelemetry W3C = OpenTelemetry.propagating(ContextPropagators.create(W3CTraceContextPropagator.getInstance()));

    private static String traceIdOf(String... traceparents) {
        RecordHeaders headers = new RecordHeaders();
        for (String value : traceparents) {
            headers.add("traceparent", value == null ? null : value.getBytes(StandardCharsets.UTF_8));
        }
        var context = Span.fromContext(Tracing.parentOf(W3C, headers)).getSpanContext();
        return context.isValid() ? context.getTraceId() : "none";
    }

    @Test
    void aWellFormedTraceparentIsTheParent() {
        assertThat(traceIdOf("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(traceIdOf("garbage", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
                .as("the last header of that name counts, as the connector writes it").isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    }

    @Test
    void hostileOrMissingHeadersStartNoParentAndThrowNothing() {
        assertThat(traceIdOf()).isEqualTo("none");
        assertThat(traceIdOf((String) null)).isEqualTo("none");
        assertThat(traceIdOf("")).isEqualTo("none");
        assertThat(traceIdOf("not-a-traceparent")).isEqualTo("none");
        assertThat(traceIdOf("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).as("an all-zero trace id").isEqualTo("none");
        assertThat(traceIdOf("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01")).as("an all-zero span id").isEqualTo("none");
        assertThat(traceIdOf("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01")).as("upper-case hex").isEqualTo("none");
        assertThat(traceIdOf("00-" + "a".repeat(100_000) + "-00f067aa0ba902b7-01")).as("an oversized header").isEqualTo("none");
        assertThat(traceIdOf(new String(new byte[] {(byte) 0xff, (byte) 0xfe, 0}, StandardCharsets.ISO_8859_1))).isEqualTo("none");
    }
}
