package dev.openrag.query;

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
        AppOperationsAssertions.assertOperationsEndpoints("OpenRAG query API", "Neo4j", "OpenSearch");
    }

    @Test
    void refusesAForeignHostOnEveryKindOfPath() {
        AppOperationsAssertions.assertForeignHostRefused("GET /api/collections", "GET /q/health/ready", "GET /", "POST /api/search");
        AppOperationsAssertions.assertCrossSiteWriteRefused("POST /api/memories/some-id/forget", "POST /api/feedback");
    }
}
