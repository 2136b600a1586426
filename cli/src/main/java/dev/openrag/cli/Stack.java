package dev.openrag.cli;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.openrag.localstack.ComponentSpec;
import dev.openrag.localstack.Engine;
import dev.openrag.localstack.JavaRuntime;
import dev.openrag.localstack.LocalStack;
import dev.openrag.localstack.LocalStackException;
import dev.openrag.localstack.StackConfig;

/** Everything {@code openrag up} runs: the engines of local-stack plus the three Quarkus apps. */
final class Stack {

    /** The apps, their default ports (ARCHITECTURE §7) and the env var that overrides each port. */
    enum App {
        QUERY_API("query-api", 8080, "OPENRAG_QUERY_API_PORT"),
        INGEST_PIPELINE("ingest-pipeline", 8081, "OPENRAG_INGEST_PORT"),
        MCP_MEMORY("mcp-memory", 8082, "OPENRAG_MCP_PORT");

        final String module;
        final int defaultPort;
        final String portVariable;

        App(String module, int defaultPort, String portVariable) {
            this.module = module;
            this.defaultPort = defaultPort;
            this.portVariable = portVariable;
        }

        int port() {
            String value = System.getenv(portVariable);
            return value == null || value.isBlank() ? defaultPort : Integer.parseInt(value.trim());
        }
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    final StackConfig config = StackConfig.defaults();
    final LocalStack engines = new LocalStack(config, true);
    final Path root = Path.of(System.getProperty("openrag.root", ".")).toAbsolutePath().normalize();

    ComponentSpec appSpec(App app) {
        Path jar = root.resolve(app.module).resolve("target/quarkus-app/quarkus-run.jar");
        int port = app.port();
        List<String> command = new ArrayList<>(List.of(JavaRuntime.javaBinary(), ComponentSpec.marker(app.module)));
        command.addAll(JavaRuntime.commonOptions());
        command.addAll(List.of("-Xms64m", "-Xmx512m", "-jar", jar.toString()));
        return new ComponentSpec(app.module, port, List.of(), command,
                Map.of("QUARKUS_HTTP_PORT", Integer.toString(port),
                        "QUARKUS_HTTP_HOST", "127.0.0.1",
                        "KAFKA_BOOTSTRAP_SERVERS", config.kafkaBootstrapServers(),
                        "QUARKUS_NEO4J_URI", config.neo4jUri(),
                        "OPENRAG_OPENSEARCH_URL", config.openSearchUrl(),
                        "OPENRAG_QUERY_API_URL", "http://127.0.0.1:" + App.QUERY_API.port()),
                logFile -> {
                    if (!Files.exists(jar)) {
                        throw new LocalStackException(app.module + " is not built (" + jar + " missing): run ./mvnw install -DskipTests");
                    }
                },
                () -> httpOk("http://127.0.0.1:" + port + "/q/health/ready"),
                Duration.ofSeconds(120));
    }

    /** Every component in start order: engines first, then apps. */
    List<ComponentSpec> allSpecs() {
        List<ComponentSpec> specs = new ArrayList<>();
        for (Engine engine : Engine.values()) {
            specs.add(engine.spec(config));
        }
        for (App app : App.values()) {
            specs.add(appSpec(app));
        }
        return specs;
    }

    String url(App app) {
        return "http://127.0.0.1:" + app.port();
    }

    private static boolean httpOk(String url) throws Exception {
        HttpResponse<Void> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(3)).GET().build(),
                HttpResponse.BodyHandlers.discarding());
        return response.statusCode() == 200;
    }
}
