package dev.openrag.localstack.test;

import java.util.Map;

import dev.openrag.localstack.StackConfig;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Quarkus test resource: real Kafka, Neo4j and OpenSearch on free ports, wired into the app's
 * configuration. Use with {@code @QuarkusTestResource(LocalStackTestResource.class)}.
 */
public class LocalStackTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        StackConfig config = TestStack.ensureAll();
        return Map.of(
                "kafka.bootstrap.servers", config.kafkaBootstrapServers(),
                "quarkus.neo4j.uri", config.neo4jUri(),
                "openrag.opensearch.url", config.openSearchUrl());
    }

    @Override
    public void stop() {
        // engines are shared by every test class of this JVM and stop with it
    }
}
