package dev.openrag.ingest;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.test.AppOperationsAssertions;
import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** Health (a readiness check per engine), Prometheus metrics and OpenAPI, against real engines. */
@QuarkusTest
@QuarkusTestResource(value = LocalStackTestResource.class, restrictToAnnotatedClass = true)
class OperationsEndpointsTest {

    @Test
    void exposesHealthMetricsAndOpenApi() {
        // Kafka's readiness is the messaging channels' (live connections, assigned partitions): Quarkus's
        // admin-client check is off, it hung /q/health/ready for a minute while a broker was away
        AppOperationsAssertions.assertOperationsEndpoints("OpenRAG ingest pipeline", "Reactive Messaging", "Neo4j", "OpenSearch",
                "ingest-stages");
    }

    @Test
    void refusesAForeignHostOnEveryKindOfPath() {
        AppOperationsAssertions.assertForeignHostRefused("GET /api/jobs", "GET /q/health/ready", "POST /api/documents");
        AppOperationsAssertions.assertCrossSiteWriteRefused("POST /api/documents", "DELETE /api/documents/x?collection=c");
    }
}
