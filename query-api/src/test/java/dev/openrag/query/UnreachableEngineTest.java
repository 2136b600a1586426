package dev.openrag.query;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** With OpenSearch unreachable the app still starts, and readiness says which engine is down. */
@QuarkusTest
@WithTestResource(value = LocalStackTestResource.class,
        initArgs = @ResourceArg(name = LocalStackTestResource.UNREACHABLE, value = "opensearch"))
class UnreachableEngineTest {

    @jakarta.inject.Inject
    org.neo4j.driver.Driver driver;

    @jakarta.inject.Inject
    dev.openrag.knowledge.port.Embedder embedder;

    @Test
    void searchStillAnswersFromVectorsAndSaysWhatIsDegraded() {
        var graph = new dev.openrag.knowledge.neo4j.Neo4jGraphStore(driver);
        for (var chunk : SearchFixture.chunks(embedder)) {
            graph.upsertDocument(chunk.collection(), chunk.documentId(), chunk.title(), chunk.sourceUri(), "h", List.of(chunk), List.of());
        }
        given().contentType("application/json")
                .body(java.util.Map.<String, Object>of("query", "garden vegetables", "collection", SearchFixture.COLLECTION))
                .post("/api/search").then().statusCode(200)
                .body("degraded", org.hamcrest.Matchers.contains("opensearch"))
                .body("results[0].ranks", org.hamcrest.Matchers.hasKey("vector"));
        given().contentType("application/json")
                .body(java.util.Map.<String, Object>of("query", "garden", "mode", "bm25", "collection", SearchFixture.COLLECTION))
                .post("/api/search").then().statusCode(503).body("error", equalTo("unavailable"));
    }

    @Test
    void readinessIsDownAndNamesOpenSearch() {
        given().get("/q/health/ready").then()
                .statusCode(503)
                .body("status", equalTo("DOWN"))
                .body("checks.find { it.name.contains('OpenSearch') }.status", equalTo("DOWN"))
                .body("checks.find { it.name.contains('Neo4j') }.status", equalTo("UP"))
                .body("checks.name", hasItem("OpenSearch connection health check"));
        given().get("/q/health/live").then().statusCode(200);
    }
}
