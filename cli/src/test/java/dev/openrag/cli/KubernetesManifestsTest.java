package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * deploy/kubernetes (kustomize) checked statically: no cluster runs here. Every app has a
 * Deployment whose port is the app's own, readiness/liveness/startup probes on its health
 * endpoints, resources, the shared endpoints ConfigMap and the admin key from a Secret; a Service
 * on that port; an autoscaler for query-api; every engine address the apps read is set, and every
 * variable set is one an app reads.
 */
@SuppressWarnings("unchecked")
class KubernetesManifestsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path DIR = ROOT.resolve("deploy/kubernetes");
    private static final List<String> APPS = List.of("ingest-pipeline", "query-api", "mcp-memory");

    private static Map<String, Object> kustomization;
    private static final List<Map<String, Object>> RESOURCES = new ArrayList<>();

    @BeforeAll
    static void load() throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        kustomization = new Yaml(options).load(Files.readString(DIR.resolve("kustomization.yaml")));
        for (String file : (List<String>) kustomization.get("resources")) {
            for (Object document : new Yaml(options).loadAll(Files.readString(DIR.resolve(file)))) {
                RESOURCES.add((Map<String, Object>) document);
            }
        }
    }

    private static Map<String, Object> resource(String kind, String name) {
        return RESOURCES.stream().filter(r -> kind.equals(r.get("kind")) && name.equals(((Map<String, Object>) r.get("metadata")).get("name")))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in deploy/kubernetes"));
    }

    private static Map<String, Object> container(String app) {
        Map<String, Object> spec = (Map<String, Object>) resource("Deployment", app).get("spec");
        Map<String, Object> pod = (Map<String, Object>) ((Map<String, Object>) spec.get("template")).get("spec");
        return ((List<Map<String, Object>>) pod.get("containers")).get(0);
    }

    private static int appPort(String app) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(ROOT.resolve(app).resolve("src/main/resources/application.properties"))) {
            properties.load(reader);
        }
        return Integer.parseInt(properties.getProperty("quarkus.http.port"));
    }

    private static Map<String, String> endpoints() {
        return (Map<String, String>) resource("ConfigMap", "openrag-endpoints").get("data");
    }

    @Test
    void everyAppRunsOnItsOwnPortWithHealthProbesResourcesAndItsSecrets() throws IOException {
        for (String app : APPS) {
            Map<String, Object> container = container(app);
            List<Map<String, Object>> ports = (List<Map<String, Object>>) container.get("ports");
            assertThat(ports).singleElement().satisfies(port -> {
                assertThat(port).containsEntry("name", "http");
                assertThat(port.get("containerPort")).as(app + " listens on quarkus.http.port").isEqualTo(appPort(app));
            });
            Map.of("readinessProbe", "/q/health/ready", "livenessProbe", "/q/health/live", "startupProbe", "/q/health/started")
                    .forEach((probe, path) -> assertThat((Map<String, Object>) ((Map<String, Object>) container.get(probe)).get("httpGet"))
                            .as(app + " " + probe).containsEntry("path", path).containsEntry("port", "http"));
            Map<String, Map<String, String>> resources = (Map<String, Map<String, String>>) container.get("resources");
            assertThat(resources.get("requests")).as(app + " requests").containsKeys("cpu", "memory");
            assertThat(resources.get("limits")).as(app + " limits").containsKey("memory");
            assertThat(String.valueOf(container.get("envFrom"))).contains("openrag-endpoints");
            assertThat(String.valueOf(container.get("env"))).as(app + " takes the admin key from a Secret")
                    .contains("OPENRAG_AUTH_ADMIN_KEY").contains("secretKeyRef");
            assertThat(String.valueOf(kustomization.get("images"))).contains(String.valueOf(container.get("image")));

            Map<String, Object> service = (Map<String, Object>) resource("Service", app).get("spec");
            assertThat((List<Map<String, Object>>) service.get("ports")).singleElement().satisfies(port -> {
                assertThat(port.get("port")).isEqualTo(appPort(app));
                assertThat(port).containsEntry("targetPort", "http");
            });
            assertThat(String.valueOf(service.get("selector"))).isEqualTo(String.valueOf(
                    ((Map<String, Object>) ((Map<String, Object>) resource("Deployment", app).get("spec")).get("selector")).get("matchLabels")));
        }
    }

    @Test
    void queryApiScalesOnCpuFromTwoReplicas() {
        Map<String, Object> spec = (Map<String, Object>) resource("HorizontalPodAutoscaler", "query-api").get("spec");
        assertThat((Map<String, Object>) spec.get("scaleTargetRef")).containsEntry("kind", "Deployment").containsEntry("name", "query-api");
        resource("Deployment", "query-api");
        assertThat((Integer) spec.get("minReplicas")).isGreaterThanOrEqualTo(2);
        assertThat((Integer) spec.get("maxReplicas")).isGreaterThan((Integer) spec.get("minReplicas"));
    }

    @Test
    void mcpMemoryKeepsEachClientOnOneInstanceForItsSession() {
        // MCP sessions live in the instance that opened them; without affinity a second replica would answer 404s
        assertThat((Map<String, Object>) resource("Service", "mcp-memory").get("spec")).containsEntry("sessionAffinity", "ClientIP");
    }

    @Test
    void everyEngineAddressTheAppsReadIsSetAndNoneIsLoopback() throws IOException {
        Map<String, String> endpoints = endpoints();
        for (String app : APPS) {
            for (String key : Deployments.loopbackAddresses(ROOT.resolve(app))) {
                String variable = Deployments.envVar(key);
                assertThat(endpoints).as(app + " reads " + key + ": the endpoints ConfigMap must set " + variable).containsKey(variable);
                assertThat(endpoints.get(variable)).doesNotContain("127.0.0.1").doesNotContain("localhost");
            }
        }
        for (String app : List.of("query-api", "ingest-pipeline")) {
            String variable = app.equals("query-api") ? "OPENRAG_QUERY_API_URL" : "OPENRAG_INGEST_URL";
            assertThat(Deployments.host(endpoints.get(variable))).as(variable + " names the app's Service").isEqualTo(app);
        }
    }

    @Test
    void everyVariableSetIsOneAnAppReads() throws IOException {
        Set<String> read = new java.util.TreeSet<>(Deployments.variablesTheAppsRead(ROOT, APPS));
        // and those that a value the apps read names, e.g. ${POD_IP} in OPENRAG_HTTP_ALLOWED_HOSTS
        endpoints().values().forEach(value -> java.util.regex.Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)[:}]").matcher(value).results()
                .forEach(match -> read.add(match.group(1))));
        assertThat(endpoints().keySet()).allSatisfy(variable -> assertThat(read).as("does an app read " + variable + "?").contains(variable));
        for (String app : APPS) {
            for (Map<String, Object> env : (List<Map<String, Object>>) container(app).get("env")) {
                assertThat(read).as(app + " sets " + env.get("name")).contains(String.valueOf(env.get("name")));
            }
        }
    }

    /**
     * Issue 60's deployment checks: probes name Host localhost (the apps refuse other hosts), Neo4j's password and the
     * secrets key come from Secrets, the apps answer to their service names, and NetworkPolicies let only the apps (and
     * engines among themselves) reach the engines, and reach the apps on their HTTP ports only.
     */
    @Test
    void probesNameLocalhostPasswordsComeFromSecretsAndOnlyAppsReachTheEngines() {
        for (String app : APPS) {
            Map<String, Object> container = container(app);
            for (String probe : List.of("readinessProbe", "livenessProbe", "startupProbe")) {
                Map<String, Object> httpGet = (Map<String, Object>) ((Map<String, Object>) container.get(probe)).get("httpGet");
                assertThat(String.valueOf(httpGet.get("httpHeaders"))).as(app + " " + probe + " sends Host: localhost")
                        .isEqualTo("[{name=Host, value=localhost}]");
            }
            String env = String.valueOf(container.get("env"));
            assertThat(env).as(app + ": Neo4j's password from a Secret")
                    .contains("name=QUARKUS_NEO4J_AUTHENTICATION_PASSWORD, valueFrom={secretKeyRef={name=openrag-neo4j, key=password}}");
            if (app.equals("ingest-pipeline")) {
                assertThat(env).as(app + ": one secrets key for every instance")
                        .contains("name=OPENRAG_SECRETS_KEY, valueFrom={secretKeyRef={name=openrag-secrets, key=key}}");
            } else {
                assertThat(env).as(app + " never seals or opens a secret: it is not given the key").doesNotContain("OPENRAG_SECRETS_KEY")
                        .doesNotContain("openrag-secrets");
            }
            Map<String, Object> template = (Map<String, Object>) ((Map<String, Object>) resource("Deployment", app).get("spec")).get("template");
            assertThat(String.valueOf(((Map<String, Object>) template.get("metadata")).get("labels")))
                    .contains("app.kubernetes.io/component=app");
            assertThat(endpoints().get("OPENRAG_HTTP_ALLOWED_HOSTS")).as("the apps call each other by service name").contains(app);
        }
        assertThat(endpoints()).containsEntry("QUARKUS_NEO4J_AUTHENTICATION_DISABLED", "false");

        Map<String, Object> engines = (Map<String, Object>) resource("NetworkPolicy", "engines-only-from-apps").get("spec");
        assertThat(String.valueOf(engines.get("podSelector"))).isEqualTo("{matchLabels={app.kubernetes.io/component=engine}}");
        assertThat((List<String>) engines.get("policyTypes")).containsExactly("Ingress");
        List<Map<String, Object>> from = (List<Map<String, Object>>) ((List<Map<String, Object>>) engines.get("ingress")).get(0).get("from");
        assertThat(from).extracting(peer -> String.valueOf(peer.get("podSelector")))
                .containsExactlyInAnyOrder("{matchLabels={app.kubernetes.io/component=app}}", "{matchLabels={app.kubernetes.io/component=engine}}");
        assertThat(from).as("no namespace or address range opens the engines").allSatisfy(peer -> assertThat(peer).containsOnlyKeys("podSelector"));

        Map<String, Object> apps = (Map<String, Object>) resource("NetworkPolicy", "apps-on-their-http-ports").get("spec");
        List<Map<String, Object>> ports = (List<Map<String, Object>>) ((List<Map<String, Object>>) apps.get("ingress")).get(0).get("ports");
        assertThat(ports).extracting(port -> port.get("port")).containsExactlyInAnyOrder(8080, 8081, 8082);
        assertThat(RESOURCES).as("only ingest-pipeline's manifest names the secrets key").allSatisfy(resource -> {
            String name = String.valueOf(((Map<String, Object>) resource.get("metadata")).get("name"));
            if (!name.equals("ingest-pipeline")) {
                assertThat(String.valueOf(resource)).as(resource.get("kind") + " " + name).doesNotContain("OPENRAG_SECRETS_KEY");
            }
        });
    }

    /**
     * Issue 68: Prometheus finds the apps' pods through the Kubernetes API and scrapes each on its own (a Service would
     * sample one replica per scrape, and counters would look reset), keeping only OpenRAG's app pods on their http port;
     * each pod answers to its own address as a Host (POD_IP, from the Downward API, in the allowed hosts).
     */
    @Test
    void prometheusDiscoversAndScrapesEachAppPod() throws IOException {
        Map<String, Object> config = new Yaml().load(Files.readString(ROOT.resolve("deploy/prometheus/kubernetes.yml")));
        List<Map<String, Object>> jobs = (List<Map<String, Object>>) config.get("scrape_configs");
        assertThat(jobs).isNotEmpty().allSatisfy(job -> {
            assertThat(job).as("no fixed targets (a Service)").doesNotContainKey("static_configs");
            assertThat(job).containsEntry("metrics_path", "/q/metrics");
            List<Map<String, Object>> discovery = (List<Map<String, Object>>) job.get("kubernetes_sd_configs");
            assertThat(discovery).singleElement().satisfies(sd -> assertThat(sd.get("role")).isIn("pod", "endpoints"));
            List<Map<String, Object>> relabel = (List<Map<String, Object>>) job.get("relabel_configs");
            assertThat(relabel).as("keeps OpenRAG's app pods on their http port").anySatisfy(rule -> {
                assertThat(rule).containsEntry("action", "keep").containsEntry("regex", "app");
                assertThat(String.valueOf(rule.get("source_labels"))).contains("app_kubernetes_io_component");
            }).anySatisfy(rule -> {
                assertThat(rule).containsEntry("action", "keep").containsEntry("regex", "http");
                assertThat(String.valueOf(rule.get("source_labels"))).contains("port_name");
            }).anySatisfy(rule -> assertThat(rule).containsEntry("target_label", "pod"));
        });
        assertThat(endpoints().get("OPENRAG_HTTP_ALLOWED_HOSTS").split(",")).contains("${POD_IP}");
        for (String app : APPS) {
            assertThat(String.valueOf(container(app).get("env"))).as(app + " knows its pod's address")
                    .contains("name=POD_IP, valueFrom={fieldRef={fieldPath=status.podIP}}");
            assertThat((List<Map<String, Object>>) container(app).get("ports")).extracting(port -> port.get("name")).containsExactly("http");
        }
    }
}
