package dev.openrag.query.memory;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * REST {@code POST /api/memories} runs memory's suggestion check as MCP {@code add_memory} does (the policy lives in
 * the memory module, {@code ContradictionCheck}): an update is linked to the fact it may replace, a fact about
 * something else is not, and a caller's own {@code supersedes} is never second-guessed.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class MemoryAddSuggestionsTest {

    private static JsonPath add(String scope, String text) {
        return given().contentType(ContentType.JSON).body(Map.of("scope", scope, "text", text))
                .post("/api/memories").then().statusCode(201).extract().jsonPath();
    }

    private static List<String> suggested(JsonPath added) {
        List<Map<String, Object>> links = added.getList("links");
        return links == null ? List.of() : links.stream().filter(link -> "suggested_supersedes".equals(link.get("type")))
                .map(link -> (String) link.get("toId")).toList();
    }

    @Test
    void aRestAddIsLinkedToTheFactItMayReplaceAndToNothingElse() {
        String scope = "rest-suggestions-" + UUID.randomUUID();
        String mysql = add(scope, "The staging database is MySQL 8 on db-stage-1.").getString("id");
        String cache = add(scope, "The staging cache is Redis 6 on cache-stage-1.").getString("id");

        JsonPath postgres = add(scope, "The staging database was migrated from MySQL to PostgreSQL 16 on db-stage-1.");
        assertThat(suggested(postgres)).as("the update names the fact it may replace").containsExactly(mysql);

        // a control: a fact about something else in the same scope is linked to nothing
        JsonPath holiday = add(scope, "Our team's summer party is in the park by the river.");
        assertThat(suggested(holiday)).isEmpty();
        assertThat(suggested(postgres)).doesNotContain(cache);
    }

    @Test
    void theSameUpdateInSpanishIsLinkedToo() {
        String scope = "rest-suggestions-es-" + UUID.randomUUID();
        String old = add(scope, "La base de datos de pruebas es MySQL 8 en el servidor db-pruebas-1.").getString("id");
        JsonPath update = add(scope, "La base de datos de pruebas pasó de MySQL a PostgreSQL 16 en el servidor db-pruebas-1.");
        assertThat(suggested(update)).containsExactly(old);
    }
}
