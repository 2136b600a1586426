package dev.openrag.localstack.test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.openrag.localstack.ComponentSpec;
import dev.openrag.localstack.JavaRuntime;
import dev.openrag.localstack.StackConfig;

/**
 * A packaged Quarkus app ({@code target/quarkus-app/quarkus-run.jar}) run as its own process
 * against the test engines, for integration tests that kill, restart or combine the apps.
 */
public final class PackagedApp {

    private PackagedApp() {
    }

    /**
     * Settings that only make the tests wait less, as ingest-pipeline's {@code %test} profile sets them for its own
     * tests; none changes what a test proves. A Kafka consumer's close waits for its last fetch, which the broker holds
     * up to {@code fetch.max.wait.ms} (5 s in production, for idle CPU), after a pause of twice the poll timeout for
     * records in flight, and SmallRye closes the 13 consumers one after another: an app stopped in 16-19 s with a 5 s
     * fetch, 4.6-6 s with 500 ms and a 100 ms poll, 3.7-4.3 s with 100 ms and 100 ms; a 50 ms poll closes
     * each consumer in about 0.15 s instead of 0.25 s.
     * Offsets are committed every second, not every 5 s, so a stage's lag (read from its group's committed offsets)
     * falls to 0 as soon as its work is done. A stage waiting for an engine retries at least every 3 s, not 15 s, so it
     * resumes soon after the engine is back.
     */
    static final Map<String, String> TEST_SETTINGS = Map.of(
            "KAFKA_FETCH_MAX_WAIT_MS", "100",
            "MP_MESSAGING_CONNECTOR_SMALLRYE_KAFKA_POLL_TIMEOUT", "50",
            "KAFKA_AUTO_COMMIT_INTERVAL_MS", "1000",
            "OPENRAG_INGEST_RETRY_MAX_BACKOFF", "3s");

    /**
     * Runs the given starts (each blocks until its app is ready) at once, one thread each, and waits for all: apps
     * that do not need each other to start come up together instead of one after another.
     */
    public static void startTogether(Runnable... starts) {
        try (var executor = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            java.util.concurrent.CompletableFuture.allOf(java.util.Arrays.stream(starts)
                    .map(start -> java.util.concurrent.CompletableFuture.runAsync(start, executor))
                    .toArray(java.util.concurrent.CompletableFuture[]::new)).join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** The process spec: engine URLs from {@code stack}, the HTTP port, and any extra environment. */
    public static ComponentSpec spec(String name, Path jar, int port, StackConfig stack, Map<String, String> extraEnv) {
        List<String> command = new ArrayList<>(List.of(JavaRuntime.javaBinary(), ComponentSpec.marker(name)));
        command.addAll(JavaRuntime.commonOptions());
        command.addAll(JavaRuntime.appOptions());
        command.addAll(List.of("-Xmx512m", "-jar", jar.toAbsolutePath().toString()));
        Map<String, String> env = new HashMap<>(Map.of(
                "QUARKUS_HTTP_PORT", Integer.toString(port),
                "KAFKA_BOOTSTRAP_SERVERS", stack.kafkaBootstrapServers(),
                "QUARKUS_NEO4J_URI", stack.neo4jUri(),
                "OPENRAG_OPENSEARCH_URL", stack.openSearchUrls(),
                // the test stack's own, as ./openrag up sets its stack's: never the defaults under the user's ~/.openrag
                "OPENRAG_SECRETS_KEY_FILE", stack.home().resolve("secrets.key").toAbsolutePath().toString(),
                "OPENRAG_SOURCES_DIR", stack.home().resolve("sources").toAbsolutePath().toString()));
        env.putAll(TEST_SETTINGS);
        env.putAll(extraEnv);
        return new ComponentSpec(name, port, List.of(), command, Map.copyOf(env), ComponentSpec.Preparation.NONE,
                () -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready"))
                        .build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200,
                Duration.ofSeconds(120));
    }
}
