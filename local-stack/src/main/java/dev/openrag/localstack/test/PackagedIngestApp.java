package dev.openrag.localstack.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.localstack.ComponentSpec;
import dev.openrag.localstack.Ports;
import dev.openrag.localstack.ProcessSupervisor;
import dev.openrag.localstack.StackConfig;

/** The packaged ingest app as its own process against the test engines, and a client for its API. */
public final class PackagedIngestApp implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ProcessSupervisor supervisor;
    private final ComponentSpec spec;
    public final String base;

    /** Where the ingest module's tests find its package. */
    public static final Path OWN_JAR = Path.of("target/quarkus-app/quarkus-run.jar");
    /** Where the modules built after ingest-pipeline find it. */
    public static final Path SIBLING_JAR = Path.of("../ingest-pipeline/target/quarkus-app/quarkus-run.jar");

    /**
     * How often the app renews its crawl leases and claims orphaned crawls, the first time one second after it starts
     * (every 10 s from 5 s in production): a test that restarts the app sees a claim soon after it is ready.
     */
    public static final Duration CRAWL_CLAIMS_EVERY = Duration.ofSeconds(2);

    public PackagedIngestApp(String name, StackConfig stack) {
        this(name, stack, Map.of());
    }

    /** @param extraEnv more settings of the app, e.g. {@code OPENRAG_AUTH_ADMIN_KEY} */
    public PackagedIngestApp(String name, StackConfig stack, Map<String, String> extraEnv) {
        this(name, OWN_JAR, stack, extraEnv);
    }

    public PackagedIngestApp(String name, Path jar, StackConfig stack, Map<String, String> extraEnv) {
        int port = Ports.free();
        this.supervisor = new ProcessSupervisor(stack.home(), false);
        Map<String, String> env = new HashMap<>(Map.of(
                "OPENRAG_OPENSEARCH_REFRESH_ON_WRITE", "true",
                // the crawl tests' site runs on 127.0.0.1
                "OPENRAG_FETCH_ALLOW_PRIVATE", "127.0.0.1/32",
                // consumers of a killed app must leave their groups quickly for the restart (or the other instance) to
                // take over: 4 s, which a test stack's Kafka allows (Engine.TEST_TIMINGS), instead of 45 s
                "KAFKA_SESSION_TIMEOUT_MS", "4000",
                "KAFKA_HEARTBEAT_INTERVAL_MS", "1000",
                "OPENRAG_CRAWLER_FIRST_CLAIM", "1s",
                "OPENRAG_CRAWLER_LEASE_RENEWAL", CRAWL_CLAIMS_EVERY.toSeconds() + "s"));
        env.putAll(extraEnv);
        this.spec = PackagedApp.spec(name, jar, port, stack, env);
        this.base = "http://127.0.0.1:" + port;
    }

    public void start() {
        supervisor.start(spec);
    }

    public long pid() {
        return supervisor.status(spec).pid();
    }

    public ProcessSupervisor supervisor() {
        return supervisor;
    }

    public ComponentSpec spec() {
        return spec;
    }

    public JsonNode postCorpus(String collection, String corpus) throws Exception {
        return postJson("/api/corpus?collection=" + collection, corpus);
    }

    /** POSTs JSON and expects 202 Accepted; returns the answer. */
    public JsonNode postJson(String path, String json) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return JSON.readTree(response.body());
    }

    public int delete(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).DELETE().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    public JsonNode get(String path) throws Exception {
        return JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    /** The body of {@code path} as text (Prometheus metrics, say). */
    public String text(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The HTTP status of {@code path}, or -1 while nothing answers within 5 s. */
    public int status(String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /**
     * Polls the job until a stage reports {@code chunks} chunks done, and checks that the job is
     * still running then, short of {@code total}: a fault injected next meets work in flight.
     */
    public void awaitChunksInFlight(String jobId, String stage, int chunks, int total, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode job;
        do {
            job = get("/api/jobs/" + jobId);
            assertThat(System.nanoTime()).as("%s reaches %d chunks: %s", stage, chunks, job).isLessThan(deadline);
            Thread.sleep(200);
        } while (job.path("stages").path(stage).path("chunks").asInt() < chunks);
        assertThat(job.path("state").asText()).as("the job is still under way: " + job).isEqualTo("running");
        assertThat(job.path("stages").path(stage).path("chunks").asInt()).as("%s has chunks left: %s", stage, job).isLessThan(total);
    }

    /** Polls the job until it has finished (a job not known yet, e.g. during a restart's replay, is waited for too). */
    public JsonNode awaitFinished(String jobId, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode job;
        do {
            Thread.sleep(500);
            job = get("/api/jobs/" + jobId);
            assertThat(System.nanoTime()).as("job finishes: " + job).isLessThan(deadline);
        } while (!java.util.Set.of("completed", "completed_with_errors", "failed").contains(job.path("state").asText())); // or not known yet
        return job;
    }

    @Override
    public void close() {
        supervisor.stop(spec.name(), Duration.ofSeconds(20));
    }
}
