package dev.openrag.query;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

import dev.openrag.knowledge.embedding.OnnxEmbedder;
import dev.openrag.knowledge.opensearch.OpenSearchClients;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.localstack.test.TestStack;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.http.ContentType;

/**
 * The packaged query-api (the jar here; the native executable when built with -Pnative) on real
 * engines: health, search, ask and browsing over the fixture the test writes into the stores.
 */
@QuarkusIntegrationTest
@QuarkusTestResource(value = LocalStackTestResource.class, restrictToAnnotatedClass = true)
class PackagedQueryApiIT {

    @BeforeAll
    static void loadFixture() {
        StackConfig stack = TestStack.ensureAll();
        try (Driver driver = GraphDatabase.driver(stack.neo4jUri(), AuthTokens.none())) {
            FixtureLoader.load(driver, OpenSearchClients.create(stack.openSearchUrl()), new OnnxEmbedder());
        }
    }

    @Test
    void servesHealthSearchAskAndBrowsing() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/swagger-ui/").then().statusCode(404); // no Swagger UI in production
        given().accept("application/json").get("/q/openapi").then().statusCode(200);
        given().contentType(ContentType.JSON)
                .body(Map.of("query", "how should I care for vegetable plants in my garden", "collection", SearchFixture.COLLECTION))
                .post("/api/search").then().statusCode(200).body("results[0].documentId", equalTo("doc-2"));
        given().contentType(ContentType.JSON)
                .body(Map.of("question", "How much sun do tomatoes need?", "collection", SearchFixture.COLLECTION, "k", 2))
                .post("/api/ask").then().statusCode(200).body("mode", equalTo("extractive")).body("sources[0].documentId", equalTo("doc-2"));
        given().get("/api/collections").then().statusCode(200).body("collections.name", hasItem(SearchFixture.COLLECTION));
        given().contentType(ContentType.JSON).body(Map.of("query", " ")).post("/api/search").then().statusCode(400)
                .body("error", equalTo("bad_request"));
    }
}
