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
    private static final List<String> ENGINES = List.of("kafka", "qdrant", "opensearch", "neo4j", "ollama");
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
        services.forEach((name, service) -> assertThat(service).as(name + " healthcheck").containsKey("healthcheck"));
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
            dependsOn.values().forEach(condition -> assertThat(condition).containsEntry("condition", "service_healthy"));
            Map<String, String> build = (Map<String, String>) service.get("build");
            assertThat(ROOT.resolve(build.get("context")).resolve(build.get("dockerfile"))).as(app + " Dockerfile").isRegularFile();
        }
        assertThat(((Map<String, String>) services.get("query-api").get("build")).get("dockerfile")).endsWith("Dockerfile.native");
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

        Process config = new ProcessBuilder("docker", "compose", "-f", ROOT.resolve("compose.yaml").toString(), "config", "-q")
                .redirectErrorStream(true).start();
        String output = new String(config.getInputStream().readAllBytes());
        assertThat(config.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(config.exitValue()).as(output).isZero();
    }
}
