package dev.openrag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.openrag.localstack.Engine;
import dev.openrag.localstack.LocalStack;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.PackagedIngestApp;
import dev.openrag.localstack.test.SharedCorpus;
import dev.openrag.localstack.test.TestStack;

/**
 * Each engine in turn (Kafka, Neo4j, OpenSearch) is killed with SIGKILL while the shared corpus's
 * first documents stream through one packaged ingest app, and restarted after a pause longer than
 * the old retry budget (13 s). The app is never restarted: the job completes with no failure, each
 * store holds exactly the sample's chunks, nothing of the job is dead-lettered, and readiness, DOWN
 * during the outage, returns to UP by itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EngineOutageIT {

    private static final Duration OUTAGE = Duration.ofSeconds(15);
    private static final SharedCorpus CORPUS = SharedCorpus.firstDocuments(40);

    private StackConfig stack;
    private PackagedIngestApp app;

    @BeforeAll
    void startApp() {
        stack = TestStack.ensureAll();
        app = new PackagedIngestApp("ingest-outage-it", stack);
        app.start();
    }

    @AfterAll
    void stopApp() {
        if (app != null) {
            app.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void engineKilledMidCorpusThenRestartedLosesNothingAndNeedsNoRestartOfTheApp(Engine engine) throws Exception {
        String collection = "outage-" + engine.componentName();
        String jobId = app.postCorpus(collection, CORPUS.json()).path("jobId").asText();
        app.awaitChunksInFlight(jobId, "sink-neo4j", 60, CORPUS.chunks(), Duration.ofMinutes(3));

        long killedAt = System.nanoTime();
        kill(engine);
        List<Integer> readiness = new ArrayList<>();
        boolean sawWait = false;
        long maxLag = 0;
        try {
            while (System.nanoTime() - killedAt < OUTAGE.toNanos()) {
                readiness.add(app.status("/q/health/ready"));
                maxLag = Math.max(maxLag, lag(engine));
                JsonNode job = app.get("/api/jobs/" + jobId);
                assertThat(job.path("state").asText()).as("the job waits, it does not give up: " + job).isEqualTo("running");
                sawWait |= job.path("stages").toString().contains(engine.componentName() + " unreachable since");
                Thread.sleep(500);
            }
        } finally {
            TestStack.ensure(EnumSet.of(engine)); // the next scenario needs it, whatever happened here
        }
        assertThat(readiness).as("readiness is DOWN (503) while " + engine + " is away").contains(503);
        if (engine != Engine.KAFKA) { // the lag is read from the broker: with the broker away it cannot be
            assertThat(maxLag).as("issue 63: the waiting sink's lag rises while " + engine + " is away").isPositive();
        }
        if (engine != Engine.KAFKA) { // a stage learns of a broker outage only when its send times out (30 s)
            assertThat(sawWait).as("the job shows a stage waiting for " + engine).isTrue();
        }

        long back = System.nanoTime();
        JsonNode job = app.awaitFinished(jobId, Duration.ofMinutes(6));
        System.out.printf("[outage] %s: job finished %.1f s after the engine returned%n", engine, (System.nanoTime() - back) / 1e9);

        assertThat(job.path("state").asText()).as(job.toString()).isEqualTo("completed");
        assertThat(job.path("documents").path("done").asInt()).isEqualTo(CORPUS.documents());
        assertThat(job.path("failures")).isEmpty();
        JsonNode stats = app.get("/api/collections/" + collection + "/stats");
        assertThat(stats.path("documents").asLong()).isEqualTo(CORPUS.documents());
        assertThat(stats.path("chunks").path("opensearch").asLong()).isEqualTo(CORPUS.chunks());
        assertThat(stats.path("chunks").path("neo4j").asLong()).isEqualTo(CORPUS.chunks());
        assertThat(IngestTestSupport.readAll(stack.kafkaBootstrapServers(), "openrag.ingest.dlq", jobId))
                .as("dead letters of the job").isEmpty();
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (app.status("/q/health/ready") != 200) {
            assertThat(System.nanoTime()).as("readiness returns to UP after " + engine + " came back").isLessThan(deadline);
            Thread.sleep(500);
        }
        while (engine != Engine.KAFKA && lag(engine) > 0) {
            assertThat(System.nanoTime()).as("issue 63: the lag falls back to 0 after " + engine + " came back").isLessThan(deadline);
            Thread.sleep(500);
        }
    }

    /** openrag_stage_lag_records of the sink that writes to {@code engine} (0 when not reported yet). */
    private long lag(Engine engine) throws Exception {
        String stage = engine == Engine.OPENSEARCH ? "sink-opensearch" : "sink-neo4j";
        return app.text("/q/metrics").lines().filter(line -> line.startsWith("openrag_stage_lag_records{") && line.contains("stage=\"" + stage + "\""))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).findFirst().orElse(0);
    }

    private void kill(Engine engine) throws Exception {
        long pid = new LocalStack(stack, false).status(engine).pid();
        new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor();
        ProcessHandle.of(pid).ifPresent(process -> process.onExit().join());
    }
}
