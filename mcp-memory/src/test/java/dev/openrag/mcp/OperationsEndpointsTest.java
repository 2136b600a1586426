package dev.openrag.mcp;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.test.AppOperationsAssertions;
import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** Health (a readiness check per engine), Prometheus metrics and OpenAPI, against real engines. */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class OperationsEndpointsTest {

    @Test
    void exposesHealthMetricsAndOpenApi() {
        // Kafka's readiness is the messaging channels' (see ingest-pipeline's OperationsEndpointsTest)
        AppOperationsAssertions.assertOperationsEndpoints("OpenRAG MCP memory server", "Reactive Messaging", "Neo4j");
    }

    @Test
    void refusesAForeignHostOnEveryKindOfPath() {
        AppOperationsAssertions.assertForeignHostRefused("POST /mcp", "GET /mcp/sse", "GET /q/health/ready");
        AppOperationsAssertions.assertCrossSiteWriteRefused("POST /mcp");
    }
}
