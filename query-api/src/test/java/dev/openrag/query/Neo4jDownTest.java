package dev.openrag.query;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.test.AppSettings;
import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

/**
 * With Neo4j unreachable, every endpoint that needs it answers 503 naming the engine (they gave
 * 500 with the driver's message before), while bad requests are still 400s: validation comes first.
 */
@QuarkusTest
@WithTestResource(value = LocalStackTestResource.class,
        initArgs = @ResourceArg(name = LocalStackTestResource.UNREACHABLE, value = "neo4j"))
// the driver's own failure is what each endpoint must turn into a 503: at once, not after retrying a closed port for
// the 2 s the tests' setting allows (or running out the read budget, which FrozenEngineReadsTest checks)
@WithTestResource(value = AppSettings.class, initArgs = @ResourceArg(name = "quarkus.neo4j.max-transaction-retry-time", value = "0S"))
class Neo4jDownTest {

    @Test
    void browseMemoriesFeedbackAndGraphAnswer503NamingNeo4j() {
        unavailable(given().get("/api/collections"));
        unavailable(given().queryParam("collection", "docs").get("/api/documents"));
        unavailable(given().queryParam("collection", "docs").get("/api/documents/some-id"));
        unavailable(given().queryParam("collection", "docs").queryParam("entity", "kafka").get("/api/graph/neighbourhood"));
        unavailable(given().queryParam("scope", "agent-1").get("/api/memories"));
        unavailable(given().contentType("application/json").body(Map.of("scope", "agent-1", "text", "the sky is blue"))
                .post("/api/memories"));
        unavailable(given().contentType("application/json").body(Map.of("scope", "agent-1", "query", "sky"))
                .post("/api/memories/search"));
        unavailable(given().contentType("application/json").post("/api/memories/some-id/pin"));
        unavailable(given().queryParam("scope", "agent-1").get("/api/corrections"));
        unavailable(given().contentType("application/json").body(Map.of("query", "q", "chunkId", "docs/c-1#0", "helpful", true))
                .post("/api/feedback"));
    }

    @Test
    void badRequestsAreStill400sWithTheEngineDown() {
        given().queryParam("collection", "docs").queryParam("page", 20_000_000).queryParam("size", 200).get("/api/documents")
                .then().statusCode(400).body("error", equalTo("bad_request"));
        given().contentType("application/json").body(Map.of("scope", "agent-1", "text", "x", "tags", java.util.Arrays.asList("ok", null)))
                .post("/api/memories").then().statusCode(400).body("message", containsString("tags[1] is null"));
    }

    private static void unavailable(io.restassured.response.Response response) {
        ValidatableResponse then = response.then();
        then.statusCode(503).body("error", equalTo("unavailable")).body("message", containsString("neo4j"))
                .body("message", not(containsString("Exception")));
    }
}
