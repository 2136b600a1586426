package dev.openrag.query;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.Engine;
import dev.openrag.localstack.test.EngineFreezer;
import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.localstack.test.TestStack;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * Reads with a frozen engine (the real Neo4j, then the real OpenSearch, stopped with SIGSTOP as a long GC pause or a
 * stalled VM would stop it). Readiness answers within 3 s, naming the engine down with a short reason and since when,
 * never an exception's text. A hybrid search answers within 3 s with what the other engine gave, the frozen one named
 * in {@code degraded}. After SIGCONT both are as before (the positive control, before and after).
 */
@QuarkusTest
@QuarkusTestResource(value = LocalStackTestResource.class, restrictToAnnotatedClass = true)
class FrozenEngineReadsTest extends FixtureTest {

    private static Response hybridSearch() {
        return given().contentType(io.restassured.http.ContentType.JSON)
                .body(Map.of("query", "scheduler parallel jobs", "collection", SearchFixture.COLLECTION, "k", 3)).post("/api/search");
    }

    @Test
    void aHybridSearchAnswersInTimeWithTheOtherEngineAndNamesTheFrozenOne() {
        for (Engine engine : List.of(Engine.NEO4J, Engine.OPENSEARCH)) {
            Response before = hybridSearch();
            assertThat(before.statusCode()).isEqualTo(200);
            assertThat(before.jsonPath().getList("degraded")).as("nothing degraded before").isNull();
            try (EngineFreezer frozen = EngineFreezer.freeze(TestStack.ensure(EnumSet.of(engine)), engine)) {
                long started = System.nanoTime();
                Response response = hybridSearch();
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                assertThat(took).as(engine + " frozen: the search answers within 3 s").isLessThan(Duration.ofSeconds(3));
                assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
                assertThat(response.jsonPath().getList("degraded", String.class)).as(response.asString())
                        .contains(engine == Engine.NEO4J ? "vectors" : "opensearch");
                assertThat(response.jsonPath().getList("results.text", String.class)).as("the other engine's hits")
                        .anyMatch(text -> text.contains("scheduler"));
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (hybridSearch().jsonPath().getList("degraded") != null) {
                assertThat(System.nanoTime()).as(engine + " thawed: searches whole again").isLessThan(deadline);
                sleep();
            }
        }
    }

    @Test
    void readinessAnswersInTimeNamingTheFrozenEngineAndRecovers() {
        for (Engine engine : List.of(Engine.NEO4J, Engine.OPENSEARCH)) {
            String name = engine == Engine.NEO4J ? "neo4j" : "opensearch";
            ready(); // the positive control: up before
            try (EngineFreezer frozen = EngineFreezer.freeze(TestStack.ensure(EnumSet.of(engine)), engine)) {
                long started = System.nanoTime();
                Response response = given().get("/q/health/ready");
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                assertThat(took).as(name + " frozen: readiness answers within 3 s").isLessThan(Duration.ofSeconds(3));
                assertThat(response.statusCode()).isEqualTo(503);
                JsonPath body = response.jsonPath();
                List<Map<String, Object>> down = body.getList("checks.findAll { it.status == 'DOWN' }");
                assertThat(down).as(response.asString()).singleElement().satisfies(check -> {
                    Map<String, Object> data = (Map<String, Object>) check.get("data");
                    assertThat(data).containsEntry("engine", name).containsKey("since");
                    assertThat(String.valueOf(data.get("reason"))).startsWith("no answer within");
                });
                assertThat(response.asString()).as("no exception text").doesNotContain("Exception").doesNotContain("at org.");
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (given().get("/q/health/ready").statusCode() != 200) {
                assertThat(System.nanoTime()).as(name + " thawed: ready again").isLessThan(deadline);
                sleep();
            }
        }
    }

    private static void ready() {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (given().get("/q/health/ready").statusCode() != 200) {
            assertThat(System.nanoTime()).as("ready").isLessThan(deadline);
            sleep();
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
