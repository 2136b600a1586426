package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Issue 63: {@code ./openrag status} prints a {@code lag} line per stage from the ingest app's
 * {@code openrag_stage_lag_records}, and the shipped Prometheus and Grafana files are what they say.
 */
class StatusLagTest {

    @Test
    void aLagLinePerStageFromThePrometheusExposition() {
        String metrics = """
                # HELP openrag_stage_lag_records Records of the stage's input topic its consumer group has not committed yet
                # TYPE openrag_stage_lag_records gauge
                openrag_stage_lag_records{stage="parse"} 0.0
                openrag_stage_lag_records{stage="sink-neo4j"} 1234.0
                openrag_stage_documents_total{outcome="completed",stage="parse"} 3.0
                openrag_stage_lag_records{instance="x",stage="embed"} 7.0
                """;
        List<String> lines = StatusCommand.formatLag(metrics).lines().filter(line -> !line.isBlank()).toList();
        assertThat(lines.get(0)).startsWith("LAG").contains("STAGE").contains("RECORDS");
        assertThat(lines.subList(1, lines.size())).hasSize(3).allMatch(line -> line.startsWith("lag"))
                .anyMatch(line -> line.contains("sink-neo4j") && line.endsWith("1234"))
                .anyMatch(line -> line.contains("embed") && line.endsWith("7"));
    }

    /** Issue 68: a stage paused because an engine refuses writes is named with the engine and its reason. */
    @Test
    void aWaitingLinePerStagePausedForAnEngineFromReadiness() {
        String down = """
                {"status":"DOWN","checks":[
                  {"name":"OpenSearch","status":"UP"},
                  {"name":"ingest-stages","status":"DOWN","data":{
                    "sink-opensearch":"opensearch refuses writes (cluster_block_exception, 429) since 2026-11-29T09:00:00Z",
                    "sink-neo4j":"neo4j unreachable since 2026-11-29T09:00:01Z"}},
                  {"name":"other","status":"UP","data":{"sink-text":"not a stage wait"}}]}
                """;
        List<String> lines = StatusCommand.formatWaits(down).lines().filter(line -> !line.isBlank()).toList();
        assertThat(lines.get(0)).startsWith("WAIT").contains("STAGE", "REASON");
        assertThat(lines.subList(1, lines.size())).hasSize(2).allMatch(line -> line.startsWith("waiting"))
                .anyMatch(line -> line.contains("sink-opensearch") && line.contains("opensearch refuses writes (cluster_block_exception, 429)"))
                .anyMatch(line -> line.contains("sink-neo4j") && line.contains("neo4j unreachable"));
        // controls: all well, and answers that are no health report
        assertThat(StatusCommand.formatWaits("{\"status\":\"UP\",\"checks\":[{\"name\":\"ingest-stages\",\"status\":\"UP\"}]}")).isEmpty();
        assertThat(StatusCommand.formatWaits("<html>proxy error</html>")).isEmpty();
        assertThat(StatusCommand.formatWaits("")).isEmpty();
    }

    @Test
    void theDashboardPlotsLagAndThePrometheusFilesScrapeTheThreeApps() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(Path.of("../deploy/grafana/openrag-dashboard.json")));
        String exprs = String.join("\n", dashboard.path("panels").findValues("expr").stream().map(JsonNode::asText).toList());
        assertThat(exprs).contains("openrag_stage_lag_records", "openrag_stage_chunks_total", "outcome=\"failed\"",
                "/api/search", "/api/ask", "openrag_llm_tokens_total");
        // compose: by service name; Kubernetes: each pod on its own (KubernetesManifestsTest checks the discovery)
        assertThat(Files.readString(Path.of("../deploy/prometheus/prometheus.yml"))).contains("metrics_path: /q/metrics")
                .contains("\"query-api:8080\"", "\"ingest-pipeline:8081\"", "\"mcp-memory:8082\"");
        assertThat(Files.readString(Path.of("../deploy/prometheus/kubernetes.yml"))).contains("metrics_path: /q/metrics")
                .contains("role: pod").doesNotContain("\"query-api:8080\"");
    }
}
