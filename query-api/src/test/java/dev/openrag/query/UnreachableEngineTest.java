package dev.openrag.query;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** With OpenSearch unreachable the app still starts, and readiness says which engine is down. */
@QuarkusTest
@TestProfile(UnreachableEngineTest.OpenSearchDown.class)
class UnreachableEngineTest {

    public static class OpenSearchDown implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(LocalStackTestResource.class,
                    Map.of(LocalStackTestResource.UNREACHABLE, "opensearch")));
        }
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
