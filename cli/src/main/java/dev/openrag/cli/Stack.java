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

/**
 * Everything {@code openrag up} runs: the engines of local-stack plus the three Quarkus apps. The
 * cluster profile ({@code up --cluster}, remembered in the home's {@value #PROFILE_FILE} file)
 * runs three Kafka brokers, two OpenSearch nodes and two instances of query-api and
 * ingest-pipeline; the second instance of an app listens {@value #SECOND_INSTANCE_OFFSET} ports above the first.
 */
final class Stack {

    static final String PROFILE_FILE = "profile";
    static final String CLUSTER_PROFILE = "cluster";
    static final int SECOND_INSTANCE_OFFSET = 10;


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

        /** Instances in the cluster profile: the stateless apps scale out; mcp-memory stays one. */
        int instances(boolean cluster) {
            return cluster && this != MCP_MEMORY ? 2 : 1;
        }
    }

    /** One running copy of an app: {@code query-api}, {@code query-api-2}, ... */
    record Instance(App app, int index) {
        String name() {
            return index == 0 ? app.module : app.module + "-" + (index + 1);
        }

        int port() {
            return app.port() + SECOND_INSTANCE_OFFSET * index;
        }
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    final StackConfig config;
    final LocalStack engines;
    final Path root = Path.of(System.getProperty("openrag.root", ".")).toAbsolutePath().normalize();

    Stack() {
        this(StackConfig.defaults());
    }

    /** The stack of {@code base}'s home, in the profile recorded there. */
    Stack(StackConfig base) {
        this.config = clusterProfile(base.home()) ? base.cluster() : base;
        this.engines = new LocalStack(config, true);
    }

    static boolean clusterProfile(Path home) {
        try {
            Path profile = home.resolve(PROFILE_FILE);
            return Files.exists(profile) && Files.readString(profile).strip().equals(CLUSTER_PROFILE);
        } catch (java.io.IOException e) {
            throw new LocalStackException("cannot read " + home.resolve(PROFILE_FILE) + ": " + e.getMessage());
        }
    }

    /**
     * Records the cluster profile for this home. A home that already ran the single-node stack is
     * refused: its data lives in one broker and one node, which the cluster would not see.
     */
    static void chooseCluster(Path home) {
        if (clusterProfile(home)) {
            return;
        }
        if (Files.exists(home.resolve("kafka")) || Files.exists(home.resolve("opensearch"))) {
            throw new LocalStackException(home + " holds a single-node stack; the cluster profile needs a home of its own: "
                    + "./openrag down, then OPENRAG_HOME=.openrag-cluster ./openrag up --cluster (or remove " + home + ")");
        }
        try {
            Files.createDirectories(home);
            Files.writeString(home.resolve(PROFILE_FILE), CLUSTER_PROFILE + "\n");
        } catch (java.io.IOException e) {
            throw new LocalStackException("cannot write " + home.resolve(PROFILE_FILE) + ": " + e.getMessage());
        }
    }

    boolean cluster() {
        return config.isCluster();
    }

    /** Every instance of every app, first instances first. */
    List<Instance> instances() {
        List<Instance> instances = new ArrayList<>();
        for (int index = 0; index < 2; index++) {
            for (App app : App.values()) {
                if (index < app.instances(cluster())) {
                    instances.add(new Instance(app, index));
                }
            }
        }
        return instances;
    }

    /**
     * The folders {@code ./openrag sync} may read on this machine: OPENRAG_SOURCES_ALLOWED_ROOTS when set, else the
     * user's home, the temp folder and the folder around the checkout (the stack's data folder is refused whatever).
     */
    String sourceRoots() {
        String set = System.getenv("OPENRAG_SOURCES_ALLOWED_ROOTS");
        if (set != null && !set.isBlank()) {
            return set;
        }
        Path around = root.toAbsolutePath().normalize().getParent();
        return java.util.stream.Stream.of(System.getProperty("user.home"), System.getProperty("java.io.tmpdir"),
                (around == null ? root.toAbsolutePath() : around).toString()).map(Stack::listItem).collect(java.util.stream.Collectors.joining(","));
    }

    /** One item of a config list: a comma in a folder's name ("/home/Doe, Jane") would otherwise split it in two. */
    static String listItem(String value) {
        return value.replace("\\", "\\\\").replace(",", "\\,");
    }

    ComponentSpec appSpec(App app) {
        return appSpec(new Instance(app, 0));
    }

    ComponentSpec appSpec(Instance instance) {
        App app = instance.app();
        Path jar = root.resolve(app.module).resolve("target/quarkus-app/quarkus-run.jar");
        int port = instance.port();
        List<String> command = new ArrayList<>(List.of(JavaRuntime.javaBinary(), ComponentSpec.marker(instance.name())));
        command.addAll(JavaRuntime.commonOptions());
        command.addAll(JavaRuntime.appOptions());
        // glibc keeps what native code frees (ONNX Runtime's buffers, the HTTP stack's) in its arenas: handing it back once
        // a minute keeps a long-running app's RSS from creeping (one trim of query-api late in a 5000-document soak: -37 MB)
        command.addAll(List.of("-Xms64m", "-Xmx512m", "-XX:TrimNativeHeapInterval=60000", "-jar", jar.toString()));
        return new ComponentSpec(instance.name(), port, List.of(), command,
                Map.of("QUARKUS_HTTP_PORT", Integer.toString(port),
                        "QUARKUS_HTTP_HOST", "127.0.0.1",
                        "KAFKA_BOOTSTRAP_SERVERS", config.kafkaBootstrapServers(),
                        "QUARKUS_NEO4J_URI", config.neo4jUri(),
                        "OPENRAG_OPENSEARCH_URL", config.openSearchUrls(),
                        "OPENRAG_QUERY_API_URL", "http://127.0.0.1:" + App.QUERY_API.port(),
                        // one key for every instance: what one seals (credentials, crawl logins) another opens
                        "OPENRAG_SECRETS_KEY_FILE", config.home().resolve("secrets.key").toAbsolutePath().toString(),
                        "OPENRAG_SOURCES_DIR", config.home().resolve("sources").toAbsolutePath().toString(),
                        "OPENRAG_SOURCES_ALLOWED_ROOTS", sourceRoots()),
                logFile -> {
                    if (!Files.exists(jar)) {
                        throw new LocalStackException(app.module + " is not built (" + jar + " missing): run ./mvnw install -DskipTests");
                    }
                },
                () -> httpOk("http://127.0.0.1:" + port + "/q/health/ready"),
                Duration.ofSeconds(120)).withNiceness(app == App.INGEST_PIPELINE ? ingestNiceness(System.getenv(INGEST_NICENESS)) : 0);
    }

    /** The variable that sets the ingest pipeline's CPU niceness. */
    static final String INGEST_NICENESS = "OPENRAG_INGEST_NICENESS";
    /**
     * The ingest pipeline's default niceness. Embedding is the stack's heaviest CPU work and can
     * wait a moment; searches cannot. On 2 cores, `./openrag bench soak` measured search p99 during
     * ingest 159 ms at normal priority and 97 ms at 10, at some cost in ingest speed while searches
     * keep the cores busy (docs/benchmarks.md).
     */
    static final int DEFAULT_INGEST_NICENESS = 10;

    /** The niceness {@code value} names (unset or blank: the default), 0–19. */
    static int ingestNiceness(String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT_INGEST_NICENESS;
        }
        try {
            int niceness = Integer.parseInt(value.strip());
            if (niceness >= 0 && niceness <= 19) {
                return niceness;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new LocalStackException(INGEST_NICENESS + " must be a whole number from 0 (normal priority) to 19 (lowest), not '"
                + value + "'");
    }

    /** Every component in start order: engines first, then apps. */
    List<ComponentSpec> allSpecs() {
        List<ComponentSpec> specs = new ArrayList<>();
        for (Engine engine : Engine.values()) {
            specs.addAll(engine.specs(config));
        }
        for (Instance instance : instances()) {
            specs.add(appSpec(instance));
        }
        return specs;
    }

    String url(App app) {
        return "http://127.0.0.1:" + app.port();
    }

    String url(Instance instance) {
        return "http://127.0.0.1:" + instance.port();
    }

    private static boolean httpOk(String url) throws Exception {
        HttpResponse<Void> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(3)).GET().build(),
                HttpResponse.BodyHandlers.discarding());
        return response.statusCode() == 200;
    }
}
