package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/** compose.yaml (the distributed deployment) is well-formed and complete; no Docker engine is needed. */
class ComposeFileTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> ENGINES = List.of("kafka", "qdrant", "opensearch", "neo4j", "ollama", "ollama-pull");
    private static final List<String> APPS = List.of("ingest-pipeline", "query-api", "mcp-memory");

    @SuppressWarnings("unchecked")
    private static Map<String, Object> compose() throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        return new Yaml(options).load(Files.readString(ROOT.resolve("compose.yaml")));
    }

    @Test
    @SuppressWarnings("unchecked")
    void runsEveryEngineAndAppWithHealthChecksAndVolumes() throws IOException {
        Map<String, Object> compose = compose();
        Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) compose.get("services");

        assertThat(services).containsKeys(ENGINES.toArray(String[]::new)).containsKeys(APPS.toArray(String[]::new));
        services.forEach((name, service) -> assertThat(service).as(name + " healthcheck")
                .containsKey(name.equals("ollama-pull") ? "entrypoint" : "healthcheck"));
        for (String stateful : List.of("kafka", "qdrant", "opensearch", "neo4j", "ollama")) {
            assertThat((List<String>) services.get(stateful).get("volumes")).as(stateful + " keeps its data").isNotEmpty();
        }
        assertThat((Map<String, Object>) compose.get("volumes")).containsKeys("kafka-data", "neo4j-data", "opensearch-data", "qdrant-data");
    }

    @Test
    @SuppressWarnings("unchecked")
    void appsUseQdrantWaitForHealthyEnginesAndBuildFromExistingDockerfiles() throws IOException {
        Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) compose().get("services");
        for (String app : APPS) {
            Map<String, Object> service = services.get(app);
            Map<String, Object> environment = (Map<String, Object>) service.get("environment");
            assertThat(environment).containsEntry("OPENRAG_VECTORS_BACKEND", "qdrant")
                    .containsEntry("KAFKA_BOOTSTRAP_SERVERS", "kafka:9092");
            Map<String, Map<String, String>> dependsOn = (Map<String, Map<String, String>>) service.get("depends_on");
            assertThat(dependsOn).containsKeys("kafka", "neo4j", "opensearch", "qdrant");
            dependsOn.forEach((dependency, condition) -> assertThat(condition).as(app + " waits for " + dependency)
                    .containsEntry("condition", switch (dependency) {
                        case "ollama-pull" -> "service_completed_successfully"; // an init step: it exits
                        case "query-api", "ingest-pipeline" -> "service_started"; // called when used, not at start
                        default -> "service_healthy";
                    }));
            Map<String, String> build = (Map<String, String>) service.get("build");
            assertThat(ROOT.resolve(build.get("context")).resolve(build.get("dockerfile"))).as(app + " Dockerfile").isRegularFile();
        }
        assertThat(((Map<String, String>) services.get("query-api").get("build")).get("dockerfile")).endsWith("Dockerfile.native");
    }

    /**
     * The tools the engine images are known to contain (their images' documentation): a health
     * check may use only these, so changing one to an unverified tool fails here.
     */
    private static final Map<String, String> ENGINE_HEALTH_TOOLS = Map.of(
            "kafka", "/opt/kafka/bin/kafka-broker-api-versions.sh", // apache/kafka ships Kafka's scripts
            "qdrant", "bash", // qdrant/qdrant is Debian-based
            "opensearch", "curl", // opensearchproject/opensearch has curl
            "neo4j", "cypher-shell", // neo4j ships its shell on the PATH
            "ollama", "ollama");

    @SuppressWarnings("unchecked")
    private static String healthCommand(Map<String, Object> service) {
        List<String> test = (List<String>) ((Map<String, Object>) service.get("healthcheck")).get("test");
        return test.get(0).equals("CMD-SHELL") ? test.get(1).strip().split("\\s+")[0] : test.get(1);
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyHealthCheckRunsWhatItsImageContains() throws IOException {
        Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) compose().get("services");
        ENGINE_HEALTH_TOOLS.forEach((engine, tool) -> assertThat(healthCommand(services.get(engine))).as(engine).isEqualTo(tool));
        for (String app : APPS) {
            Map<String, Object> service = services.get(app);
            String command = healthCommand(service);
            Map<String, String> build = (Map<String, String>) service.get("build");
            String dockerfile = Files.readString(ROOT.resolve(build.get("context")).resolve(build.get("dockerfile")));
            assertThat(dockerfile).as(app + "'s Dockerfile installs " + command + ", which its health check runs")
                    .containsPattern("(apt-get install|microdnf install)[^\\n]*\\s" + command + "(-minimal)?(\\s|$)");
            assertThat(String.join(" ", (List<String>) ((Map<String, Object>) service.get("healthcheck")).get("test")))
                    .contains("http://localhost:" + containerPort(((List<String>) service.get("ports")).get(0)) + "/q/health/ready");
        }
    }

    /** The container's side of a "[address:]host:container" port mapping. */
    private static String containerPort(String mapping) {
        return mapping.substring(mapping.lastIndexOf(':') + 1);
    }

    /**
     * Issue 60: compose publishes no engine port, the apps' ports on 127.0.0.1 unless OPENRAG_BIND says otherwise, the
     * engines sit on an internal network, Neo4j needs a password the apps are given, and the apps answer to the names they
     * call each other by.
     */
    @Test
    @SuppressWarnings("unchecked")
    void onlyTheAppsArePublishedOnLoopbackAndTheEnginesAreInternalWithNeo4jAuth() throws IOException {
        Map<String, Object> compose = compose();
        Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) compose.get("services");
        Map<String, Map<String, Object>> networks = (Map<String, Map<String, Object>>) compose.get("networks");
        assertThat(networks.get("engines")).as("the engines' network has no way in or out").containsEntry("internal", true);
        for (String engine : ENGINES) {
            Map<String, Object> service = services.get(engine);
            assertThat(service).as(engine + " publishes no port").doesNotContainKeys("ports", "expose", "network_mode");
            assertThat((List<String>) service.get("networks")).as(engine + " is on the engines' network").contains("engines")
                    .allSatisfy(network -> assertThat(network.equals("engines") || engine.equals("ollama") && network.equals("egress"))
                            .as(engine + " on " + network + " (only ollama downloads models)").isTrue());
        }
        for (String app : APPS) {
            Map<String, Object> service = services.get(app);
            assertThat((List<String>) service.get("ports")).as(app + " publishes its own port on OPENRAG_BIND, 127.0.0.1 by default")
                    .singleElement().asString().startsWith("${OPENRAG_BIND:-127.0.0.1}:");
            assertThat((List<String>) service.get("networks")).containsExactlyInAnyOrder("engines", "edge");
            Map<String, Object> environment = (Map<String, Object>) service.get("environment");
            assertThat(environment).containsEntry("QUARKUS_NEO4J_AUTHENTICATION_DISABLED", "false")
                    .containsEntry("QUARKUS_NEO4J_AUTHENTICATION_PASSWORD", "${OPENRAG_NEO4J_PASSWORD:?set OPENRAG_NEO4J_PASSWORD to a long random secret}");
            assertThat(String.valueOf(environment.get("OPENRAG_HTTP_ALLOWED_HOSTS")).split(",")).containsExactlyInAnyOrderElementsOf(APPS);
            if (app.equals("ingest-pipeline")) {
                assertThat(String.valueOf(environment.get("OPENRAG_SECRETS_KEY"))).startsWith("${OPENRAG_SECRETS_KEY:?");
            } else {
                assertThat(environment).as(app + " never seals or opens a secret: it is not given the key").doesNotContainKey("OPENRAG_SECRETS_KEY");
            }
        }
        Map<String, Object> neo4j = (Map<String, Object>) services.get("neo4j").get("environment");
        assertThat(String.valueOf(neo4j.get("NEO4J_AUTH"))).isEqualTo("neo4j/${OPENRAG_NEO4J_PASSWORD:?set OPENRAG_NEO4J_PASSWORD to a long random secret}");
        assertThat(String.join(" ", (List<String>) ((Map<String, Object>) services.get("neo4j").get("healthcheck")).get("test")))
                .as("the health check logs in").contains("-u neo4j -p");
        assertThat(((Map<String, Object>) services.get("opensearch").get("environment"))).as("without its security plugin only on the internal network")
                .containsEntry("DISABLE_SECURITY_PLUGIN", "true");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyEngineAddressAnAppReadsIsSetToAServiceOfTheFile() throws IOException {
        Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) compose().get("services");
        for (String app : APPS) {
            Map<String, Object> environment = (Map<String, Object>) services.get(app).get("environment");
            for (String key : Deployments.loopbackAddresses(ROOT.resolve(app))) {
                String variable = Deployments.envVar(key);
                assertThat(environment).as(app + " reads " + key + " (127.0.0.1 by default): compose must set " + variable)
                        .containsKey(variable);
                String host = Deployments.host(String.valueOf(environment.get(variable)));
                assertThat(services).as(app + ": " + variable + " points at " + host).containsKey(host);
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyVariableTheAppsAreGivenIsOneTheyRead() throws IOException {
        Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) compose().get("services");
        java.util.Set<String> read = Deployments.variablesTheAppsRead(ROOT, APPS);
        for (String app : APPS) {
            ((Map<String, Object>) services.get(app).get("environment")).keySet()
                    .forEach(variable -> assertThat(read).as(app + " is given " + variable + ": does an app read it?").contains(variable));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void dependenciesExistAndFormNoCycle() throws IOException {
        Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) compose().get("services");
        Map<String, List<String>> edges = new java.util.HashMap<>();
        services.forEach((name, service) -> {
            Map<String, Object> dependsOn = (Map<String, Object>) service.getOrDefault("depends_on", Map.of());
            edges.put(name, List.copyOf(dependsOn.keySet()));
            dependsOn.keySet().forEach(dependency -> assertThat(services).as(name + " depends on").containsKey(dependency));
        });
        assertThat(Deployments.cycle(edges)).as("a dependency cycle blocks every service on it").isEmpty();
        Map<String, Object> pull = services.get("ollama-pull");
        assertThat((List<String>) pull.get("entrypoint")).containsExactly("ollama", "pull", "${OPENRAG_OLLAMA_MODEL:-llama3.2}");
        assertThat((Map<String, Object>) services.get("query-api").get("environment"))
                .containsEntry("OPENRAG_OLLAMA_MODEL", "${OPENRAG_OLLAMA_MODEL:-llama3.2}")
                .containsEntry("OPENRAG_CHAT_PROVIDER", "${OPENRAG_LLM:-none}");
    }

    @Test
    void dockerComposeAcceptsItWhereADockerClientWithComposeExists() throws Exception {
        boolean hasCompose;
        try {
            Process probe = new ProcessBuilder("docker", "compose", "version").redirectErrorStream(true).start();
            hasCompose = probe.waitFor(20, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (IOException noDocker) {
            hasCompose = false;
        }
        Assumptions.assumeTrue(hasCompose, "no docker compose client on this machine");

        // without interpolation: the file requires secrets (${OPENRAG_ADMIN_KEY:?…}) the test JVM never inherits
        Process config = new ProcessBuilder("docker", "compose", "-f", ROOT.resolve("compose.yaml").toString(), "config", "-q", "--no-interpolate")
                .redirectErrorStream(true).start();
        String output = new String(config.getInputStream().readAllBytes());
        assertThat(config.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(config.exitValue()).as(output).isZero();
    }
}
