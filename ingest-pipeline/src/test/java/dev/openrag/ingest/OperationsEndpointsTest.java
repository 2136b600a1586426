package dev.openrag.ingest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.Engine;
import dev.openrag.localstack.test.AppOperationsAssertions;
import dev.openrag.localstack.test.EngineFreezer;
import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.localstack.test.TestStack;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** Health (a readiness check per engine), Prometheus metrics and OpenAPI, against real engines. */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class OperationsEndpointsTest {

    @Test
    void exposesHealthMetricsAndOpenApi() {
        // Kafka's readiness is the messaging channels' (live connections, assigned partitions): Quarkus's
        // admin-client check is off, it hung /q/health/ready for a minute while a broker was away
        AppOperationsAssertions.assertOperationsEndpoints("OpenRAG ingest pipeline", "Reactive Messaging", "Neo4j", "OpenSearch",
                "ingest-stages");
    }

    @Test
    void refusesAForeignHostOnEveryKindOfPath() {
        AppOperationsAssertions.assertForeignHostRefused("GET /api/jobs", "GET /q/health/ready", "POST /api/documents");
        AppOperationsAssertions.assertCrossSiteWriteRefused("POST /api/documents", "DELETE /api/documents/x?collection=c");
    }

    /**
     * Issue 68: CORS grants only the web UI's own origins (query-api's page), not any local port: a page of another
     * origin gets no grant to read and its write is refused before it does anything; the UI's origin reads and writes.
     */
    @Test
    void corsGrantsOnlyTheUiOriginsNotAnyLocalPort() {
        for (String foreign : List.of("http://localhost:3000", "http://127.0.0.1:5173", "https://localhost:8080", "http://localhost:80801",
                "http://localhost:8080.evil.example", "http://[::1]:9090", "null")) {
            Response preflight = given().header("Origin", foreign).header("Access-Control-Request-Method", "POST")
                    .header("Access-Control-Request-Headers", "content-type").options("/api/documents");
            assertThat(preflight.header("Access-Control-Allow-Origin")).as("preflight from " + foreign).isNull();
            Response read = given().header("Origin", foreign).get("/api/jobs/no-such-job");
            assertThat(read.header("Access-Control-Allow-Origin")).as("read from " + foreign).isNull();
            Response write = given().header("Origin", foreign).contentType("application/json")
                    .body(Map.of("title", "cors", "text", "written from " + foreign, "collection", "ops-cors")).post("/api/documents");
            assertThat(write.statusCode()).as("write from " + foreign).isEqualTo(403);
            assertThat(write.header("Access-Control-Allow-Origin")).isNull();
        }
        for (String ui : List.of("http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080")) {
            Response preflight = given().header("Origin", ui).header("Access-Control-Request-Method", "POST")
                    .header("Access-Control-Request-Headers", "content-type").options("/api/documents");
            assertThat(preflight.header("Access-Control-Allow-Origin")).as("preflight from the UI at " + ui).isEqualTo(ui);
            Response write = given().header("Origin", ui).contentType("application/json")
                    .body(Map.of("title", "cors", "text", "written from the UI", "collection", "ops-cors")).post("/api/documents");
            assertThat(write.statusCode()).as("write from the UI at " + ui).isEqualTo(202);
            assertThat(write.header("Access-Control-Allow-Origin")).isEqualTo(ui);
        }
    }

    /**
     * Issue 60: with the real Neo4j, then the real OpenSearch, frozen (SIGSTOP), readiness answers 503 within
     * 3 s and a collection's stats 503 naming the engine within the read budget; both as before after SIGCONT.
     */
    @Test
    void readinessAndStatsAnswerInTimeWithAFrozenEngine() {
        for (Engine engine : List.of(Engine.NEO4J, Engine.OPENSEARCH)) {
            String name = engine == Engine.NEO4J ? "neo4j" : "opensearch";
            awaitStatus("/q/health/ready", 200);
            given().get("/api/collections/ops-frozen/stats").then().statusCode(200);
            try (EngineFreezer frozen = EngineFreezer.freeze(TestStack.ensure(EnumSet.of(engine)), engine)) {
                long started = System.nanoTime();
                Response ready = given().get("/q/health/ready");
                assertThat(Duration.ofNanos(System.nanoTime() - started)).as(name + " frozen: readiness").isLessThan(Duration.ofSeconds(3));
                assertThat(ready.statusCode()).isEqualTo(503);
                assertThat(ready.asString()).contains(name).doesNotContain("Exception");
                started = System.nanoTime();
                Response stats = given().get("/api/collections/ops-frozen/stats");
                assertThat(Duration.ofNanos(System.nanoTime() - started)).as(name + " frozen: stats").isLessThan(Duration.ofMillis(6500));
                assertThat(stats.statusCode()).isEqualTo(503);
                assertThat(stats.jsonPath().getString("message")).contains(name);
            }
            awaitStatus("/q/health/ready", 200);
            awaitStatus("/api/collections/ops-frozen/stats", 200);
        }
    }

    private static void awaitStatus(String path, int status) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (given().get(path).statusCode() != status) {
            assertThat(System.nanoTime()).as(path + " answers " + status).isLessThan(deadline);
            IngestTestSupport.sleep(500);
        }
    }
}
