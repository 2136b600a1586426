package dev.openrag.localstack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/** The three engines of the local stack and how each one is launched and probed. */
public enum Engine {

    KAFKA("kafka") {
        @Override
        int nodes(StackConfig config) {
            return config.kafkaBrokers();
        }

        @Override
        ComponentSpec spec(StackConfig config, int node) {
            String component = nodeName(config, node);
            Path dir = config.home().resolve(component);
            Path properties = dir.resolve("server.properties");
            Path dataDir = dir.resolve("data");
            return new ComponentSpec(component, config.kafkaPort(node), List.of(config.kafkaControllerPort(node)),
                    javaCommand(this, component, List.of("-Xms256m", "-Xmx512m",
                                    "-Dlog4j2.configurationFile=" + dir.resolve("log4j2.properties")),
                            "kafka.Kafka", properties.toString()),
                    Map.of(),
                    log -> prepareKafka(config, node, dir, properties, dataDir, log),
                    () -> kafkaHealthy(config.kafkaPort(node)),
                    Duration.ofSeconds(120));
        }
    },

    NEO4J("neo4j") {
        @Override
        ComponentSpec spec(StackConfig config, int node) {
            return new ComponentSpec(name, config.neo4jBoltPort(), List.of(),
                    javaCommand(this, name, List.of("-Xms256m", "-Xmx768m",
                                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                                    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                                    "--add-opens=java.base/java.lang=ALL-UNNAMED",
                                    "--enable-native-access=ALL-UNNAMED"),
                            "dev.openrag.localstack.engines.neo4j.Neo4jLauncher",
                            config.home().resolve("neo4j").toString(), Integer.toString(config.neo4jBoltPort())),
                    Map.of(),
                    ComponentSpec.Preparation.NONE,
                    () -> neo4jHealthy(config),
                    Duration.ofSeconds(120));
        }
    },

    OPENSEARCH("opensearch") {
        @Override
        int nodes(StackConfig config) {
            return config.openSearchNodes();
        }

        @Override
        ComponentSpec spec(StackConfig config, int node) {
            String component = nodeName(config, node);
            List<String> arguments = new ArrayList<>(List.of(config.home().resolve(component).toString(),
                    Integer.toString(config.openSearchPort(node)), Integer.toString(config.openSearchTransportPort(node))));
            if (config.openSearchNodes() > 1) { // the node's name, where its peers listen, who bootstraps the cluster
                List<String> peers = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (int peer = 0; peer < config.openSearchNodes(); peer++) {
                    peers.add("127.0.0.1:" + config.openSearchTransportPort(peer));
                    names.add(nodeName(config, peer));
                }
                arguments.addAll(List.of(component, String.join(",", peers), String.join(",", names)));
            }
            return new ComponentSpec(component, config.openSearchPort(node), List.of(config.openSearchTransportPort(node)),
                    javaCommand(this, component, List.of("-Xms512m", "-Xmx1g",
                                    "--enable-native-access=ALL-UNNAMED",
                                    "-Dopensearch.set.netty.runtime.available.processors=false"),
                            "dev.openrag.localstack.engines.opensearch.OpenSearchLauncher", arguments.toArray(String[]::new)),
                    Map.of(),
                    ComponentSpec.Preparation.NONE,
                    () -> openSearchHealthy("http://127.0.0.1:" + config.openSearchPort(node)),
                    Duration.ofSeconds(180));
        }
    };

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    final String name;

    Engine(String name) {
        this.name = name;
    }

    public String componentName() {
        return name;
    }

    /** How many processes of this engine the stack runs (brokers, nodes). */
    int nodes(StackConfig config) {
        return 1;
    }

    /** Node {@code node} (from 0) of this engine. */
    abstract ComponentSpec spec(StackConfig config, int node);

    /** Every process of this engine: one, or one per broker or node in the cluster profile. */
    public List<ComponentSpec> specs(StackConfig config) {
        return java.util.stream.IntStream.range(0, nodes(config)).mapToObj(node -> spec(config, node)).toList();
    }

    /** The first (or only) process: the one single-node tools and tests talk to. */
    public ComponentSpec spec(StackConfig config) {
        return spec(config, 0);
    }

    /** {@code kafka} alone, {@code kafka-1}, {@code kafka-2}, ... in the cluster profile (their data directories too). */
    String nodeName(StackConfig config, int node) {
        return nodes(config) == 1 ? name : name + "-" + (node + 1);
    }

    /** A server's command: with a class-data-sharing archive ({@link ClassDataSharing}). */
    private static List<String> javaCommand(Engine engine, String component, List<String> jvmOptions, String mainClass, String... args) {
        ClassDataSharing.Launch launch = ClassDataSharing.of(mainClass, EngineClasspath.of(engine.name));
        List<String> options = new ArrayList<>(jvmOptions);
        options.addAll(launch.options());
        return javaCommand(component, launch.classpath(), options, mainClass, args);
    }

    private static List<String> javaCommand(String component, String classpath, List<String> jvmOptions, String mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(JavaRuntime.javaBinary());
        command.add(ComponentSpec.marker(component));
        command.addAll(JavaRuntime.commonOptions());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classpath);
        command.add(EngineMain.class.getName());
        command.add(mainClass);
        command.addAll(List.of(args));
        return command;
    }

    /**
     * A test stack's Kafka notices the dead sooner, so a test that kills a broker or an app waits less; the defaults are
     * kept for an installation. A broker's registration lapses after 3 s without a heartbeat instead of 9 s: a broker
     * restarted after a SIGKILL is refused ("another broker is registered with that id") until its old registration
     * lapses (the restart of a single broker took 13.6 s, 7.5 of them in that wait), and a dead broker of a cluster keeps
     * its partitions' leadership until then. Consumers may have sessions down to 3 s (6 s by default): a killed app's
     * consumers hold their groups' partitions for their whole session.
     */
    private static final String TEST_TIMINGS = String.join("\n",
            "broker.session.timeout.ms=3000",
            "broker.heartbeat.interval.ms=750",
            "group.min.session.timeout.ms=3000");

    /**
     * Writes the KRaft config on every start (ports may change) and formats storage once. Every
     * broker is also a controller; in the cluster profile the three form the quorum, share one
     * cluster id, and every topic, internal ones included, has three replicas of which two must
     * have a write ({@link KafkaTopics#replication}).
     */
    private static void prepareKafka(StackConfig config, int node, Path dir, Path properties, Path dataDir, Path log)
            throws IOException, InterruptedException {
        Files.createDirectories(dataDir);
        List<String> voters = new ArrayList<>();
        for (int voter = 0; voter < config.kafkaBrokers(); voter++) {
            voters.add((voter + 1) + "@127.0.0.1:" + config.kafkaControllerPort(voter));
        }
        int replicas = KafkaTopics.replication(config.kafkaBrokers());
        int minInSync = KafkaTopics.minInSyncReplicas(config.kafkaBrokers());
        Files.writeString(properties, propertiesText(String.join("\n",
                "process.roles=broker,controller",
                "node.id=" + (node + 1),
                "controller.quorum.voters=" + String.join(",", voters),
                "listeners=PLAINTEXT://127.0.0.1:" + config.kafkaPort(node) + ",CONTROLLER://127.0.0.1:" + config.kafkaControllerPort(node),
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + config.kafkaPort(node),
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + dataDir,
                "num.partitions=" + KafkaTopics.DEFAULT_PARTITIONS,
                "default.replication.factor=" + replicas,
                "min.insync.replicas=" + minInSync,
                "offsets.topic.replication.factor=" + replicas,
                "transaction.state.log.replication.factor=" + replicas,
                "transaction.state.log.min.isr=" + minInSync,
                "share.coordinator.state.topic.replication.factor=" + replicas,
                "share.coordinator.state.topic.min.isr=" + minInSync,
                "group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=false",
                // whole documents travel inline in events
                "message.max.bytes=" + KafkaTopics.MAX_MESSAGE_BYTES,
                "replica.fetch.max.bytes=" + KafkaTopics.MAX_MESSAGE_BYTES,
                config.forTests() ? TEST_TIMINGS : "",
                "")), StandardCharsets.US_ASCII);
        Files.writeString(dir.resolve("log4j2.properties"), String.join("\n",
                "rootLogger.level=INFO",
                "rootLogger.appenderRef.stdout.ref=STDOUT",
                "appender.stdout.type=Console",
                "appender.stdout.name=STDOUT",
                "appender.stdout.layout.type=PatternLayout",
                "appender.stdout.layout.pattern=[%d] %p %m (%c)%n",
                "logger.kafka.name=kafka",
                "logger.kafka.level=INFO",
                "logger.apache.name=org.apache.kafka",
                "logger.apache.level=WARN",
                ""), StandardCharsets.UTF_8);
        if (Files.exists(dataDir.resolve("meta.properties"))) {
            return;
        }
        // no class-data sharing for a tool whose exit status is checked: a failed archive dump changes it
        List<String> format = new ArrayList<>(javaCommand("kafka-format", EngineClasspath.of(KAFKA.name), List.of("-Xmx256m",
                        "-Dlog4j2.configurationFile=" + dir.resolve("log4j2.properties")),
                "kafka.tools.StorageTool", "format", "-t", clusterId(config), "-c", properties.toString()));
        long logBefore = Files.size(log);
        ProcessBuilder formatting = new ProcessBuilder(format)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        JavaRuntime.keepNeutralSettingsLast(formatting.environment());
        Process process = formatting.start();
        boolean exited = process.waitFor(120, TimeUnit.SECONDS);
        if (!exited || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new LocalStackException("formatting Kafka storage in " + dataDir + " failed ("
                    + (exited ? "exit status " + process.exitValue() : "no exit within 120 s") + "); its output, in " + log + ":\n  "
                    + String.join("\n  ", outputTail(log, logBefore, 40)));
        }
    }

    /**
     * Text for a {@code .properties} file that Kafka reads back exactly: it loads one with {@code Properties.load(InputStream)},
     * as ISO-8859-1, so a data folder under a path with non-ASCII letters written as UTF-8 would come back as another
     * folder ("ü" as "Ã¼"); every character past ASCII is written as its Unicode escape, a backslash as two.
     */
    static String propertiesText(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            if (c == '\\') {
                escaped.append("\\\\");
            } else if (c > 0x7e) {
                escaped.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                escaped.append(c);
            }
        }
        return escaped.toString();
    }

    /** The last {@code lines} lines a command appended to {@code log} from byte {@code from} on: why it failed, in its own words. */
    static List<String> outputTail(Path log, long from, int lines) throws IOException {
        List<String> output = LogTail.since(log, from, lines);
        return output.isEmpty() ? List.of("(nothing)") : output;
    }

    /** A fresh id for one broker; the brokers of a cluster share one, kept in the home beside their directories. */
    private static synchronized String clusterId(StackConfig config) throws IOException {
        if (config.kafkaBrokers() == 1) {
            return randomClusterId();
        }
        Path shared = config.home().resolve("kafka-cluster.id");
        if (!Files.exists(shared)) {
            Files.createDirectories(shared.getParent());
            Files.writeString(shared, randomClusterId());
        }
        return Files.readString(shared).strip();
    }

    /** Same shape as Kafka's own Uuid.randomUuid(): 16 random bytes, url-safe base64, no leading '-'. */
    private static String randomClusterId() {
        SecureRandom random = new SecureRandom();
        String id;
        do {
            byte[] bytes = new byte[16];
            random.nextBytes(bytes);
            id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        } while (id.startsWith("-"));
        return id;
    }

    /** The broker on {@code port} answers, and knows of at least one broker (itself, once the quorum has formed). */
    private static boolean kafkaHealthy(int port) throws Exception {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port);
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000);
        if (!Ports.inUse(port)) {
            return false;
        }
        try (Admin admin = Admin.create(properties)) {
            return !admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).isEmpty();
        }
    }

    private static boolean neo4jHealthy(StackConfig config) {
        if (!Ports.inUse(config.neo4jBoltPort())) {
            return false;
        }
        Config driverConfig = Config.builder()
                .withConnectionTimeout(2, TimeUnit.SECONDS)
                .withoutEncryption()
                .withLogging(org.neo4j.driver.Logging.none()) // a probe: its connection chatter is noise
                .build();
        try (Driver driver = GraphDatabase.driver(config.neo4jUri(), AuthTokens.none(), driverConfig)) {
            driver.verifyConnectivity();
            return true;
        }
    }

    private static boolean openSearchHealthy(String url) throws Exception {
        if (!Ports.inUse(URI.create(url).getPort())) {
            return false;
        }
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(url + "/_cluster/health"))
                        .timeout(Duration.ofSeconds(3)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return response.statusCode() == 200 && !response.body().contains("\"status\":\"red\"");
    }
}
