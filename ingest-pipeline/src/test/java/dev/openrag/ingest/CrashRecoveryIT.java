package dev.openrag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.localstack.ComponentStatus;
import dev.openrag.localstack.test.PackagedIngestApp;
import dev.openrag.localstack.test.SharedCorpus;
import dev.openrag.localstack.test.TestStack;

/**
 * The packaged ingest app is killed with SIGKILL in the middle of the shared corpus's first
 * documents, then restarted: the job (rebuilt from the status topic) completes and every store
 * holds each of their chunks exactly once, and the documents' timelines come through it (a second instance answers the
 * same). A scheduled crawl and its job survive a restart too. The scenarios share one app (each restarts it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrashRecoveryIT {

    private static final SharedCorpus CORPUS = SharedCorpus.firstDocuments(40);

    private PackagedIngestApp app;

    @BeforeAll
    void app() {
        app = new PackagedIngestApp("ingest-it", TestStack.ensureAll());
    }

    /** Starts the app, unless it already runs (a scenario before left it running after its restart). */
    @BeforeEach
    void startApp() {
        app.start();
    }

    @AfterAll
    void stopApp() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void killNineMidCorpusThenRestartLosesAndDuplicatesNothing() throws Exception {
        String jobId = app.postCorpus("crash", CORPUS.json()).path("jobId").asText();
        app.awaitChunksInFlight(jobId, "sink-neo4j", 60, CORPUS.chunks(), Duration.ofMinutes(3));

        long pid = app.pid();
        new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor();
        ProcessHandle.of(pid).ifPresent(p -> p.onExit().join());
        assertThat(app.supervisor().status(app.spec()).state()).isEqualTo(ComponentStatus.State.FAILED);
        assertThat(app.status("/q/health")).as("nothing answers while the app is down").isEqualTo(-1);

        app.start();
        JsonNode status = app.awaitFinished(jobId, Duration.ofMinutes(5));

        assertThat(status.path("state").asText()).isEqualTo("completed");
        assertThat(status.path("documents").path("done").asInt()).isEqualTo(CORPUS.documents());
        JsonNode stats = app.get("/api/collections/crash/stats");
        assertThat(stats.path("documents").asLong()).isEqualTo(CORPUS.documents());
        assertThat(stats.path("chunks").path("opensearch").asLong()).isEqualTo(CORPUS.chunks());
        assertThat(stats.path("chunks").path("neo4j").asLong()).isEqualTo(CORPUS.chunks());

        assertTimelinesSurviveTheRestartAndEveryInstanceAnswersTheSame(pid);
    }

    /**
     * Issue 63: each document's timeline, rebuilt from the status topic after the SIGKILL, lists the pipeline's stages in
     * order with one trace id, and names both processes (the killed one did some of the work); a second instance, started
     * now, answers the same timelines.
     */
    private void assertTimelinesSurviveTheRestartAndEveryInstanceAnswersTheSame(long killedPid) throws Exception {
        List<String> documentIds = new ArrayList<>();
        new ObjectMapper().readTree(CORPUS.json()).forEach(document -> documentIds.add(document.path("original_uuid").asText()));
        Map<String, JsonNode> timelines = new LinkedHashMap<>();
        Set<String> instances = new HashSet<>();
        for (String documentId : documentIds) {
            JsonNode timeline = app.get("/api/documents/" + documentId + "/timeline?collection=crash");
            List<String> stages = new ArrayList<>();
            timeline.path("stages").forEach(step -> {
                stages.add(step.path("stage").asText());
                if (step.hasNonNull("instance")) {
                    instances.add(step.path("instance").asText());
                }
            });
            assertThat(timeline.path("traceId").asText()).as(documentId).matches("[0-9a-f]{32}");
            assertThat(stages).as(documentId).startsWith("accepted", "parse", "chunk").contains("sink-neo4j", "sink-opensearch");
            assertThat(stages.indexOf("embed")).as(documentId).isGreaterThan(stages.indexOf("contextualize"));
            timelines.put(documentId, timeline);
        }
        assertThat(instances).as("the stages' instances, before and after the kill")
                .anySatisfy(instance -> assertThat(instance).endsWith("/" + killedPid))
                .anySatisfy(instance -> assertThat(instance).endsWith("/" + app.pid()));

        try (PackagedIngestApp second = new PackagedIngestApp("ingest-it-second", TestStack.ensureAll())) {
            second.start();
            for (String documentId : documentIds.subList(0, 5)) {
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                JsonNode there = second.get("/api/documents/" + documentId + "/timeline?collection=crash");
                while (!there.equals(timelines.get(documentId)) && System.nanoTime() < deadline) { // while it replays the topic
                    Thread.sleep(500);
                    there = second.get("/api/documents/" + documentId + "/timeline?collection=crash");
                }
                assertThat(there).as("the second instance's timeline of " + documentId).isEqualTo(timelines.get(documentId));
            }
        }
    }

    @Test
    void aScheduledCrawlAndItsJobSurviveARestart() throws Exception {
        try (CrawlTestSite site = new CrawlTestSite(100)) {
            JsonNode started = app.postJson("/api/crawls", """
                    {"seedUrls": ["%s"], "collection": "crawl-restart", "maxDepth": 0, "schedule": "3s"}""".formatted(site.url("/a")));
            String crawlId = started.path("crawlId").asText();
            String jobId = started.path("jobId").asText();
            app.awaitFinished(jobId, Duration.ofMinutes(2));

            int runsBefore = app.get("/api/crawls/" + crawlId).path("runs").asInt();
            app.close();
            app.start();

            // jobs are rebuilt from the status topic as it is replayed: the job is back once the replay reaches its end
            JsonNode job = app.awaitFinished(jobId, Duration.ofMinutes(1));
            assertThat(job.path("state").asText()).as("the crawl's job after the restart: " + job).isEqualTo("completed");
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            JsonNode crawl = app.get("/api/crawls/" + crawlId);
            while (crawl.path("runs").asInt() <= runsBefore) { // runs count on across restarts
                assertThat(System.nanoTime()).as("the crawl is resumed with its schedule: " + crawl).isLessThan(deadline);
                Thread.sleep(1000);
                crawl = app.get("/api/crawls/" + crawlId);
            }
            assertThat(crawl.path("request").path("schedule").asText()).isEqualTo("3s");

            assertThat(app.delete("/api/crawls/" + crawlId)).isEqualTo(200);
            int runs = app.get("/api/crawls/" + crawlId).path("runs").asInt();
            app.close();
            app.start();
            // past the first claims of orphaned crawls: one at least, every CRAWL_CLAIMS_EVERY from one second after start
            Thread.sleep(PackagedIngestApp.CRAWL_CLAIMS_EVERY.multipliedBy(2).toMillis());
            JsonNode stopped = app.get("/api/crawls/" + crawlId);
            assertThat(stopped.path("state").asText()).as("a stopped crawl stays stopped: " + stopped).isEqualTo("stopped");
            assertThat(stopped.path("runs").asInt()).as("and is not resumed").isEqualTo(runs);
        }
    }
}
