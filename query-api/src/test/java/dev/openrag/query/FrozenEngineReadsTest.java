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
 * in {@code degraded}. Browse, graph and memory reads answer 503 naming Neo4j within {@code openrag.read.timeout}.
 * After SIGCONT all are as before (the positive control, before and after).
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

    /**
     * Browse, the graph and memory reads with Neo4j frozen answer 503 naming it within the read budget
     * ({@code openrag.read.timeout}, 2 s in tests), instead of hanging as long as Neo4j stays frozen.
     */
    @Test
    void browseGraphAndMemoryReadsAnswer503NamingFrozenNeo4jWithinTheirBudgetAndRecover() {
        Map<String, java.util.function.Supplier<Response>> reads = new java.util.LinkedHashMap<>();
        reads.put("documents", () -> given().queryParam("collection", SearchFixture.COLLECTION).get("/api/documents"));
        reads.put("collections", () -> given().get("/api/collections"));
        reads.put("graph", () -> given().queryParam("collection", SearchFixture.COLLECTION).queryParam("entity", "scheduler")
                .get("/api/graph/neighbourhood"));
        reads.put("memory search", () -> given().contentType(io.restassured.http.ContentType.JSON)
                .body(Map.of("scope", "frozen-reads", "query", "where does the scheduler run")).post("/api/memories/search"));
        reads.put("memories", () -> given().queryParam("scope", "frozen-reads").get("/api/memories"));
        reads.forEach((name, read) -> assertThat(read.get().statusCode()).as(name + " before: the positive control").isIn(200, 404));
        try (EngineFreezer frozen = EngineFreezer.freeze(TestStack.ensure(EnumSet.of(Engine.NEO4J)), Engine.NEO4J)) {
            reads.forEach((name, read) -> {
                long started = System.nanoTime();
                Response response = read.get();
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                assertThat(took).as(name + " with Neo4j frozen answers within its budget").isLessThan(Duration.ofMillis(3500));
                assertThat(response.statusCode()).as(name + ": " + response.asString()).isEqualTo(503);
                assertThat(response.jsonPath().getString("message")).contains("neo4j");
            });
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (var read : reads.entrySet()) {
            while (read.getValue().get().statusCode() == 503) {
                assertThat(System.nanoTime()).as(read.getKey() + " after Neo4j thawed").isLessThan(deadline);
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
