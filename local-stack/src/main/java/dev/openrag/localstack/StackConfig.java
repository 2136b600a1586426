package dev.openrag.localstack;

import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Where the local engines keep their data, which loopback ports they use, and how many Kafka
 * brokers and OpenSearch nodes run. {@link #defaults()} are the ports of ARCHITECTURE §7; each can
 * be overridden by an env var. One broker and one node by default; the cluster profile
 * ({@link #cluster()}) runs three brokers and two nodes, node {@code i} (from 0) of Kafka on
 * {@code kafkaPort + 2i} (controller {@code kafkaControllerPort + 2i}), of OpenSearch on
 * {@code openSearchPort + i} (transport {@code openSearchTransportPort + i}).
 *
 * <p>{@code forTests}: a stack the tests start ({@link #onFreePorts}, {@link #clusterOnFreePorts}), whose Kafka notices
 * a dead broker and a dead consumer sooner ({@code Engine.KAFKA}); never an installation's ({@link #defaults()}).
 */
public record StackConfig(
        Path home,
        int kafkaPort,
        int kafkaControllerPort,
        int neo4jBoltPort,
        int openSearchPort,
        int openSearchTransportPort,
        int kafkaBrokers,
        int openSearchNodes,
        boolean forTests) {

    /** Brokers and nodes of the cluster profile: enough to lose one broker (RF 3, min ISR 2) and one node (one replica). */
    public static final int CLUSTER_BROKERS = 3;
    public static final int CLUSTER_OPENSEARCH_NODES = 2;

    public StackConfig {
        if (kafkaBrokers < 1 || openSearchNodes < 1) {
            throw new LocalStackException("a stack needs at least one Kafka broker and one OpenSearch node");
        }
    }

    /** A single-node stack. */
    public StackConfig(Path home, int kafkaPort, int kafkaControllerPort, int neo4jBoltPort, int openSearchPort, int openSearchTransportPort) {
        this(home, kafkaPort, kafkaControllerPort, neo4jBoltPort, openSearchPort, openSearchTransportPort, 1, 1, false);
    }

    /** The same stack, started by tests. */
    public StackConfig forTesting() {
        return new StackConfig(home, kafkaPort, kafkaControllerPort, neo4jBoltPort, openSearchPort, openSearchTransportPort,
                kafkaBrokers, openSearchNodes, true);
    }

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
        return new StackConfig(home, Ports.free(), Ports.free(), Ports.free(), Ports.free(), Ports.free()).forTesting();
    }

    /** The cluster profile on fresh free ports (each node's ports in a free run), for tests. */
    public static StackConfig clusterOnFreePorts(Path home) {
        int kafka = Ports.freeRun(2 * CLUSTER_BROKERS);
        int openSearch = Ports.freeRun(CLUSTER_OPENSEARCH_NODES);
        int transport = Ports.freeRun(CLUSTER_OPENSEARCH_NODES);
        return new StackConfig(home, kafka, kafka + 1, Ports.free(), openSearch, transport, CLUSTER_BROKERS, CLUSTER_OPENSEARCH_NODES, true);
    }

    /** The same ports and home with the cluster profile's brokers and nodes. */
    public StackConfig cluster() {
        return new StackConfig(home, kafkaPort, kafkaControllerPort, neo4jBoltPort, openSearchPort, openSearchTransportPort,
                CLUSTER_BROKERS, CLUSTER_OPENSEARCH_NODES, forTests);
    }

    public boolean isCluster() {
        return kafkaBrokers > 1 || openSearchNodes > 1;
    }

    public int kafkaPort(int node) {
        return kafkaPort + 2 * node;
    }

    public int kafkaControllerPort(int node) {
        return kafkaControllerPort + 2 * node;
    }

    public int openSearchPort(int node) {
        return openSearchPort + node;
    }

    public int openSearchTransportPort(int node) {
        return openSearchTransportPort + node;
    }

    /** Every broker, comma-separated: a client finds the cluster through any one that answers. */
    public String kafkaBootstrapServers() {
        return IntStream.range(0, kafkaBrokers).mapToObj(node -> "127.0.0.1:" + kafkaPort(node)).collect(Collectors.joining(","));
    }

    public String neo4jUri() {
        return "bolt://127.0.0.1:" + neo4jBoltPort;
    }

    /** The first node's URL (probes, tests). */
    public String openSearchUrl() {
        return "http://127.0.0.1:" + openSearchPort;
    }

    /** Every node's URL, comma-separated: what the apps' {@code openrag.opensearch.url} takes. */
    public String openSearchUrls() {
        return IntStream.range(0, openSearchNodes).mapToObj(node -> "http://127.0.0.1:" + openSearchPort(node)).collect(Collectors.joining(","));
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
