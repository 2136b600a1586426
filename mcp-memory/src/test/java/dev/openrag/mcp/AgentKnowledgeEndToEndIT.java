package dev.openrag.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.localstack.Ports;
import dev.openrag.localstack.ProcessSupervisor;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.DashboardSeries;
import dev.openrag.localstack.test.PackagedApp;
import dev.openrag.localstack.test.TestStack;

/**
 * The knowledge tools end to end: the three packaged apps on real engines, an agent connected
 * over SSE ingests a document, follows its job, finds it with search_knowledge, submits a
 * correction, and sees the correction in a later related search and at the head of the answer.
 * Then a real Prometheus scrapes the three apps for the dashboard's series.
 * Needs the ingest-pipeline and query-api packages of the same build (the reactor builds them first).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AgentKnowledgeEndToEndIT {

    private static final List<String> APPS = List.of("ingest-e2e", "query-e2e", "mcp-e2e");
    private static ProcessSupervisor supervisor;
    private static McpTestClient agent;
    private static int ingest;
    private static int query;
    private static int mcp;

    @BeforeAll
    static void startApps() throws Exception {
        Path ingestJar = Path.of("../ingest-pipeline/target/quarkus-app/quarkus-run.jar");
        Path queryJar = Path.of("../query-api/target/quarkus-app/quarkus-run.jar");
        assertThat(ingestJar).as("build ingest-pipeline first (./mvnw verify builds every module in order)").exists();
        assertThat(queryJar).as("build query-api first").exists();
        StackConfig stack = TestStack.ensureAll();
        supervisor = new ProcessSupervisor(Files.createTempDirectory("agent-e2e"), false);
        ingest = Ports.free();
        query = Ports.free();
        mcp = Ports.free();
        // mcp-memory only keeps the other two's URLs until a tool call: the three start together
        PackagedApp.startTogether(
                () -> supervisor.start(PackagedApp.spec("ingest-e2e", ingestJar, ingest, stack, Map.of("OPENRAG_OPENSEARCH_REFRESH_ON_WRITE", "true"))),
                () -> supervisor.start(PackagedApp.spec("query-e2e", queryJar, query, stack, Map.of())),
                () -> supervisor.start(PackagedApp.spec("mcp-e2e", Path.of("target/quarkus-app/quarkus-run.jar"), mcp, stack, Map.of(
                        "OPENRAG_QUERY_API_URL", "http://127.0.0.1:" + query,
                        "OPENRAG_INGEST_URL", "http://127.0.0.1:" + ingest))));
        agent = McpTestClient.connect("http://127.0.0.1:" + mcp, McpTestClient.Transport.SSE, null);
    }

    @AfterAll
    static void stopApps() {
        if (agent != null) {
            agent.close();
        }
        if (supervisor != null) {
            APPS.forEach(app -> supervisor.stop(app, Duration.ofSeconds(20)));
        }
    }

    @Test
    @Order(1)
    void anAgentIngestsSearchesCorrectsAndAsks() throws InterruptedException {
        JsonNode ingesting = agent.call("ingest_document", Map.of("collection", "agent-e2e", "title", "Zephyr gateway",
                "text", "The Zephyr gateway retries failed webhooks three times with exponential backoff.\n\n"
                        + "Webhook payloads are signed with HMAC-SHA256."));
        String jobId = ingesting.get("jobId").asText();

        JsonNode job;
        long deadline = System.currentTimeMillis() + 120_000;
        do {
            Thread.sleep(500);
            job = agent.call("get_job_status", Map.of("jobId", jobId));
            assertThat(System.currentTimeMillis()).as("job completes: " + job).isLessThan(deadline);
        } while ("running".equals(job.path("state").asText()));
        assertThat(job.get("state").asText()).isEqualTo("completed");

        JsonNode found = agent.call("search_knowledge", Map.of("query", "How often does the Zephyr gateway retry webhooks?",
                "collection", "agent-e2e", "k", 3));
        assertThat(found.get("results").get(0).get("text").asText()).contains("retries failed webhooks three times");
        assertThat(found.get("corrections")).isEmpty();
        // issue 61: the agent gets the hit's exact span in the document, as query-api gives it
        JsonNode span = found.get("results").get(0).get("spans").get(0);
        assertThat(span.get("text").asText()).isEqualTo(found.get("results").get(0).get("text").asText());
        assertThat(span.get("end").asInt() - span.get("start").asInt()).isEqualTo(span.get("text").asText().length());
        assertThat(span.get("version").asText()).hasSize(64);

        agent.call("submit_correction", Map.of("correction", "Since version 2 the Zephyr gateway retries webhooks five times.",
                "scope", "team", "query", "How many times does the Zephyr gateway retry a webhook?"));
        JsonNode corrected = agent.call("search_knowledge", Map.of("query", "how many webhook retries does Zephyr make?",
                "collection", "agent-e2e", "scope", "team"));
        assertThat(corrected.get("corrections").get(0).get("text").asText()).contains("five times");
        assertThat(agent.call("search_knowledge", Map.of("query", "how are webhook payloads signed?", "collection", "agent-e2e",
                "k", 1, "scope", "team")).get("corrections")).as("an unrelated search").isEmpty();

        JsonNode answer = agent.call("ask", Map.of("question", "How many times does Zephyr retry a webhook?",
                "collection", "agent-e2e", "scope", "team"));
        assertThat(answer.get("mode").asText()).isEqualTo("extractive");
        assertThat(answer.get("answer").asText()).startsWith("Correction: Since version 2 the Zephyr gateway retries webhooks five times.");
        assertThat(answer.get("sources").get(0).get("spans").get(0).get("text").asText()).as("the quoted sentence, exactly")
                .isNotBlank().isSubstringOf(answer.get("sources").get(0).get("text").asText());

        assertThat(agent.callError("get_job_status", Map.of("jobId", "no-such-job"))).contains("ingest-pipeline answered 404");
        assertThat(agent.callError("search_knowledge", Map.of("query", "x", "collection", "never-ingested-here")))
                .contains("query-api answered 400").contains("unknown collection 'never-ingested-here'");
    }

    /**
     * Issue 63: Debian's Prometheus, with deploy/prometheus/prometheus.yml pointed at the three apps, scrapes them all and
     * holds the lag of at least five stages and every series deploy/grafana's dashboard plots, after the agent's work
     * above. Not the LLM's token counter: no LLM runs here, and the counter appears with the first call to one.
     * Skipped where Prometheus is not installed (./mvnw installs it when it may: .mvn/ensure-prometheus.sh).
     */
    @Test
    @Order(2)
    void aRealPrometheusScrapesTheThreeAppsForTheDashboardsSeries() throws Exception {
        Path prometheus = Path.of("/usr/bin/prometheus");
        Assumptions.assumeTrue(Files.isExecutable(prometheus), "Debian's prometheus is not installed: apt-get install prometheus");
        Path dir = Files.createTempDirectory("prometheus-it");
        String config = Files.readString(Path.of("../deploy/prometheus/prometheus.yml"))
                .replace("scrape_interval: 15s", "scrape_interval: 1s")
                .replace("query-api:8080", "127.0.0.1:" + query)
                .replace("ingest-pipeline:8081", "127.0.0.1:" + ingest)
                .replace("mcp-memory:8082", "127.0.0.1:" + mcp);
        assertThat(config).as("every shipped target pointed at this test's apps").doesNotContain("query-api:", "ingest-pipeline:", "mcp-memory:");
        Files.writeString(dir.resolve("prometheus.yml"), config);
        int port = Ports.free();
        Process process = new ProcessBuilder(prometheus.toString(), "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        try {
            String api = "http://127.0.0.1:" + port + "/api/v1/query?query=";
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (value(api, "count(up{job=\"openrag\"} == 1)") < 3 || value(api, "count(count by (stage) (openrag_stage_lag_records))") < 5) {
                assertThat(System.nanoTime()).as(() -> "Prometheus scrapes the three apps and the lag of five stages; its log: "
                        + read(dir.resolve("prometheus.log"))).isLessThan(deadline);
                Thread.sleep(1000);
            }
            for (String series : DashboardSeries.referenced()) {
                if (!series.equals("openrag_llm_tokens_total")) {
                    assertThat(value(api, "count({__name__=\"" + series + "\"})")).as(series + " in Prometheus").isPositive();
                }
            }
            for (String uri : List.of("/api/search", "/api/ask")) {
                assertThat(value(api, "count(http_server_requests_seconds_count{uri=\"" + uri + "\"})")).as(uri + "'s latency").isPositive();
            }
        } finally {
            process.destroy();
            process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /** An instant query's single value; 0 when it has no result (yet), or Prometheus does not answer (yet). */
    private static double value(String api, String promql) throws InterruptedException {
        try {
            String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(api
                    + URLEncoder.encode(promql, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            JsonNode result = new ObjectMapper().readTree(body).path("data").path("result");
            return result.isEmpty() ? 0 : result.get(0).path("value").get(1).asDouble();
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
