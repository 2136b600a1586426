package dev.openrag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.localstack.ComponentSpec;
import dev.openrag.localstack.ComponentStatus;
import dev.openrag.localstack.Ports;
import dev.openrag.localstack.ProcessSupervisor;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.PackagedApp;
import dev.openrag.localstack.test.TestStack;

/**
 * The packaged ingest app is killed with SIGKILL in the middle of the shared corpus, then
 * restarted: the job (rebuilt from the status topic) completes and every store holds each of the
 * 737 chunks exactly once.
 */
class CrashRecoveryIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private ProcessSupervisor supervisor;

    @AfterEach
    void stopApp() {
        if (supervisor != null) {
            supervisor.stop("ingest-it", Duration.ofSeconds(20));
        }
    }

    @Test
    void killNineMidCorpusThenRestartLosesAndDuplicatesNothing() throws Exception {
        StackConfig stack = TestStack.ensureAll();
        supervisor = new ProcessSupervisor(stack.home(), false);
        int port = Ports.free();
        ComponentSpec app = appSpec(stack, port);
        String base = "http://127.0.0.1:" + port;
        supervisor.start(app);

        JsonNode accepted = post(base + "/api/corpus?collection=crash", Files.readString(SharedCorpusImportTest.CORPUS));
        String jobId = accepted.path("jobId").asText();
        long deadline = System.currentTimeMillis() + 180_000;
        while (get(base + "/api/jobs/" + jobId).path("stages").path("sink-neo4j").path("chunks").asInt() < 100) {
            assertThat(System.currentTimeMillis()).as("progress before the crash").isLessThan(deadline);
            Thread.sleep(200);
        }

        long pid = supervisor.status(app).pid();
        new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor();
        ProcessHandle.of(pid).ifPresent(p -> p.onExit().join());
        assertThat(supervisor.status(app).state()).isEqualTo(ComponentStatus.State.FAILED);
        JsonNode halfway = get("http://127.0.0.1:" + port, false);
        assertThat(halfway).isNull();

        supervisor.start(app);
        JsonNode status;
        deadline = System.currentTimeMillis() + 300_000;
        do {
            Thread.sleep(500);
            status = get(base + "/api/jobs/" + jobId);
            assertThat(System.currentTimeMillis()).as("job finishes after the restart: " + status).isLessThan(deadline);
        } while ("running".equals(status.path("state").asText()));

        assertThat(status.path("state").asText()).isEqualTo("completed");
        assertThat(status.path("documents").path("done").asInt()).isEqualTo(90);
        JsonNode stats = get(base + "/api/collections/crash/stats");
        assertThat(stats.path("documents").asLong()).isEqualTo(90);
        assertThat(stats.path("chunks").path("opensearch").asLong()).isEqualTo(737);
        assertThat(stats.path("chunks").path("neo4j").asLong()).isEqualTo(737);
    }

    private static ComponentSpec appSpec(StackConfig stack, int port) {
        return PackagedApp.spec("ingest-it", Path.of("target/quarkus-app/quarkus-run.jar"), port, stack, Map.of(
                "OPENRAG_OPENSEARCH_REFRESH_ON_WRITE", "true",
                // the killed consumers must leave their groups quickly for the restart to take over
                "KAFKA_SESSION_TIMEOUT_MS", "8000",
                "KAFKA_HEARTBEAT_INTERVAL_MS", "2000"));
    }

    private JsonNode post(String url, String body) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return JSON.readTree(response.body());
    }

    private JsonNode get(String url) throws Exception {
        return get(url, true);
    }

    private JsonNode get(String url, boolean mustAnswer) throws Exception {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
            return JSON.readTree(response.body());
        } catch (java.io.IOException e) {
            if (mustAnswer) {
                throw e;
            }
            return null;
        }
    }
}
