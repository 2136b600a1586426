package dev.openrag.query.memory;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/** The web UI's memory search reads the time a query names as the MCP tool does, and says how (real Neo4j). */
@QuarkusTest
@QuarkusTestResource(value = LocalStackTestResource.class, restrictToAnnotatedClass = true)
class MemorySearchApiTest {

    @Test
    void aTimeAfterAnEventIsDatedByTheScopesMemoryOfIt() {
        String scope = "rest-" + UUID.randomUUID().toString().substring(0, 8);
        given().contentType(ContentType.JSON).body(Map.of("scope", scope, "memories", List.of(
                        Map.of("id", scope + ":1", "text", "We booked the florist and the band", "occurredAt", "2023-05-20"),
                        Map.of("id", scope + ":2", "text", "Our wedding at the lake was beautiful", "occurredAt", "2023-06-10"),
                        Map.of("id", scope + ":3", "text", "We booked flights to Lisbon", "occurredAt", "2023-07-02"))))
                .post("/api/memories/batch").then().statusCode(200).body("added", equalTo(3));

        given().contentType(ContentType.JSON).body(Map.of("scope", scope, "query", "what did we book after the wedding?"))
                .post("/api/memories/search").then().statusCode(200)
                .body("period.event", equalTo("wedding"))
                .body("period.datedBy", equalTo(scope + ":2"))
                .body("period.from", equalTo("2023-06-10T00:00:00Z"))
                .body("period.to", nullValue())
                .body("results.memory.id", hasItem(scope + ":1")); // ranked lower, not filtered out
        given().contentType(ContentType.JSON).body(Map.of("scope", scope, "query", "what did we book before the graduation?"))
                .post("/api/memories/search").then().statusCode(200)
                .body("$", not(org.hamcrest.Matchers.hasKey("period")));
        // a stranger's query over the limit is a clear 400, not minutes of work
        given().contentType(ContentType.JSON).body(Map.of("scope", scope, "query", "after the wedding ".repeat(500)))
                .post("/api/memories/search").then().statusCode(400)
                .body("message", org.hamcrest.Matchers.containsString("'query' must have at most 8000 characters"));
    }
}
