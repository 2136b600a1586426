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
        public ComponentSpec spec(StackConfig config) {
            Path dir = config.home().resolve("kafka");
            Path properties = dir.resolve("server.properties");
            Path dataDir = dir.resolve("data");
            return new ComponentSpec(name, config.kafkaPort(), List.of(config.kafkaControllerPort()),
                    javaCommand(this, List.of("-Xms256m", "-Xmx512m",
                                    "-Dlog4j2.configurationFile=" + dir.resolve("log4j2.properties")),
                            "kafka.Kafka", properties.toString()),
                    Map.of(),
                    log -> prepareKafka(config, dir, properties, dataDir, log),
                    () -> kafkaHealthy(config),
                    Duration.ofSeconds(120));
        }
    },

    NEO4J("neo4j") {
        @Override
        public ComponentSpec spec(StackConfig config) {
            return new ComponentSpec(name, config.neo4jBoltPort(), List.of(),
                    javaCommand(this, List.of("-Xms256m", "-Xmx768m",
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
        public ComponentSpec spec(StackConfig config) {
            return new ComponentSpec(name, config.openSearchPort(), List.of(config.openSearchTransportPort()),
                    javaCommand(this, List.of("-Xms512m", "-Xmx1g",
                                    "--enable-native-access=ALL-UNNAMED",
                                    "-Dopensearch.set.netty.runtime.available.processors=false"),
                            "dev.openrag.localstack.engines.opensearch.OpenSearchLauncher",
                            config.home().resolve("opensearch").toString(),
                            Integer.toString(config.openSearchPort()),
                            Integer.toString(config.openSearchTransportPort())),
                    Map.of(),
                    ComponentSpec.Preparation.NONE,
                    () -> openSearchHealthy(config),
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

    public abstract ComponentSpec spec(StackConfig config);

    private static List<String> javaCommand(Engine engine, List<String> jvmOptions, String mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(JavaRuntime.javaBinary());
        command.add(ComponentSpec.marker(engine.name));
        command.addAll(JavaRuntime.commonOptions());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(EngineClasspath.of(engine.name));
        command.add(EngineMain.class.getName());
        command.add(mainClass);
        command.addAll(List.of(args));
        return command;
    }

    /** Writes the KRaft config on every start (ports may change) and formats storage once. */
    private static void prepareKafka(StackConfig config, Path dir, Path properties, Path dataDir, Path log)
            throws IOException, InterruptedException {
        Files.createDirectories(dataDir);
        Files.writeString(properties, String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + config.kafkaControllerPort(),
                "listeners=PLAINTEXT://127.0.0.1:" + config.kafkaPort() + ",CONTROLLER://127.0.0.1:" + config.kafkaControllerPort(),
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + config.kafkaPort(),
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + dataDir,
                "num.partitions=" + KafkaTopics.DEFAULT_PARTITIONS,
                "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=false",
                // whole documents travel inline in events
                "message.max.bytes=" + KafkaTopics.MAX_MESSAGE_BYTES,
                "replica.fetch.max.bytes=" + KafkaTopics.MAX_MESSAGE_BYTES,
                ""), StandardCharsets.UTF_8);
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
        List<String> format = new ArrayList<>(javaCommand(KAFKA, List.of("-Xmx256m",
                        "-Dlog4j2.configurationFile=" + dir.resolve("log4j2.properties")),
                "kafka.tools.StorageTool", "format", "-t", randomClusterId(), "-c", properties.toString()));
        format.set(1, ComponentSpec.marker("kafka-format"));
        Process process = new ProcessBuilder(format)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new LocalStackException("formatting Kafka storage in " + dataDir + " failed");
        }
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

    private static boolean kafkaHealthy(StackConfig config) throws Exception {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafkaBootstrapServers());
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000);
        if (!Ports.inUse(config.kafkaPort())) {
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

    private static boolean openSearchHealthy(StackConfig config) throws Exception {
        if (!Ports.inUse(config.openSearchPort())) {
            return false;
        }
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(config.openSearchUrl() + "/_cluster/health"))
                        .timeout(Duration.ofSeconds(3)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return response.statusCode() == 200 && !response.body().contains("\"status\":\"red\"");
    }
}
