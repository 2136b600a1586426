package dev.openrag.localstack;

import java.nio.file.Path;

/**
 * Where the local engines keep their data and which loopback ports they use.
 * {@link #defaults()} are the ports of ARCHITECTURE §7; each can be overridden by an env var.
 */
public record StackConfig(
        Path home,
        int kafkaPort,
        int kafkaControllerPort,
        int neo4jBoltPort,
        int openSearchPort,
        int openSearchTransportPort) {

    /** {@code OPENRAG_HOME} (or system property {@code openrag.home}), else {@code .openrag} in the working directory. */
    public static StackConfig defaults() {
        String home = System.getProperty("openrag.home", System.getenv().getOrDefault("OPENRAG_HOME", ".openrag"));
        return new StackConfig(Path.of(home).toAbsolutePath(),
                envPort("OPENRAG_KAFKA_PORT", 9092),
                envPort("OPENRAG_KAFKA_CONTROLLER_PORT", 9093),
                envPort("OPENRAG_NEO4J_PORT", 7687),
                envPort("OPENRAG_OPENSEARCH_PORT", 9200),
                envPort("OPENRAG_OPENSEARCH_TRANSPORT_PORT", 9300));
    }

    /** Fresh free ports, for tests. */
    public static StackConfig onFreePorts(Path home) {
        return new StackConfig(home, Ports.free(), Ports.free(), Ports.free(), Ports.free(), Ports.free());
    }

    public String kafkaBootstrapServers() {
        return "127.0.0.1:" + kafkaPort;
    }

    public String neo4jUri() {
        return "bolt://127.0.0.1:" + neo4jBoltPort;
    }

    public String openSearchUrl() {
        return "http://127.0.0.1:" + openSearchPort;
    }

    private static int envPort(String variable, int fallback) {
        String value = System.getenv(variable);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new LocalStackException(variable + " must be a port number, got '" + value + "'");
        }
    }
}
