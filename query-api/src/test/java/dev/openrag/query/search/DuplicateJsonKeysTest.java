package dev.openrag.query.search;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * A field named twice in a request body is a 400 naming it, never the last value kept: a filter {"team": "a", "team": "b"}
 * read as team = b would silently answer another question than the one asked.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class DuplicateJsonKeysTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"query\": \"q\", \"filter\": {\"team\": \"a\", \"team\": \"b\"}}",
            "{\"query\": \"q\", \"filter\": {\"or\": [{\"year\": {\"gte\": 2020, \"gte\": 2025}}]}}",
            "{\"query\": \"q\", \"k\": 3, \"k\": 50}",
            "{\"query\": \"q\", \"collection\": \"a\", \"collection\": \"b\"}"})
    void aFieldNamedTwiceIsA400NamingIt(String body) {
        given().contentType(ContentType.JSON).body(body).post("/api/search")
                .then().statusCode(400).contentType(ContentType.JSON)
                .body("error", equalTo("invalid_json"))
                .body("message", containsString("Duplicate field"));
        // control: the same body with the field once is read (whatever the search then says, it is no JSON error)
        String once = body.replace(", \"team\": \"b\"", "").replace("\"gte\": 2020, ", "").replace(", \"k\": 50", "")
                .replace(", \"collection\": \"b\"", "");
        given().contentType(ContentType.JSON).body(once).post("/api/search")
                .then().body("error", not(equalTo("invalid_json")));
    }
}
