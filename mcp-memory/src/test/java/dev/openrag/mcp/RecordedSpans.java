package dev.openrag.mcp;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;

/** The SDK's in-memory exporter, which Quarkus picks up as the span exporter of this module's tests. */
public class RecordedSpans {

    @Produces
    @Singleton
    InMemorySpanExporter spans() {
        return InMemorySpanExporter.create();
    }
}
