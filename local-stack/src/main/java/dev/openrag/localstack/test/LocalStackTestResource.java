package dev.openrag.localstack.test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.openrag.localstack.Ports;
import dev.openrag.localstack.StackConfig;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Quarkus test resource: real Kafka, Neo4j and OpenSearch on free ports, wired into the app's
 * configuration. Use with {@code @QuarkusTestResource(LocalStackTestResource.class)}.
 * The init arg {@value #UNREACHABLE} (a comma-separated list of "kafka", "neo4j", "opensearch")
 * points those engines at a closed port instead, to test how an app behaves when one is down.
 *
 * <p>Every test class of a module runs in one JVM and gets the same engines, whatever its resources
 * ({@link TestStack}); the classes with the same resources (most have {@code @WithTestResource(LocalStackTestResource.class)}
 * alone) also share one app boot. So a class leaves the engines as it found them and counts only what it wrote itself.
 * Settings of a class's own go through {@link AppSettings}, not a test profile.
 */
public class LocalStackTestResource implements QuarkusTestResourceLifecycleManager {

    public static final String UNREACHABLE = "unreachable";

    private List<String> unreachable = List.of();

    @Override
    public void init(Map<String, String> initArgs) {
        String value = initArgs.getOrDefault(UNREACHABLE, "");
        unreachable = value.isBlank() ? List.of() : List.of(value.split(","));
    }

    @Override
    public Map<String, String> start() {
        StackConfig config = TestStack.ensureAll();
        String closed = "127.0.0.1:" + Ports.free();
        Map<String, String> properties = new HashMap<>();
        properties.put("kafka.bootstrap.servers", unreachable.contains("kafka") ? closed : config.kafkaBootstrapServers());
        properties.put("quarkus.neo4j.uri", unreachable.contains("neo4j") ? "bolt://" + closed : config.neo4jUri());
        properties.put("openrag.opensearch.url", unreachable.contains("opensearch") ? "http://" + closed : config.openSearchUrl());
        return properties;
    }

    @Override
    public void stop() {
        // engines are shared by every test class of this JVM and stop with it
    }
}
