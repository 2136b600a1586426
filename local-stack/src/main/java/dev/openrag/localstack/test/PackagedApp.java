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
        env.putAll(extraEnv);
        return new ComponentSpec(name, port, List.of(), command, Map.copyOf(env), ComponentSpec.Preparation.NONE,
                () -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready"))
                        .build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200,
                Duration.ofSeconds(120));
    }
}
