package dev.openrag.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/** What the deployment tests (compose, Kubernetes) check the files against: the apps' own settings. */
final class Deployments {

    /** Read in code with a 127.0.0.1 default rather than in application.properties. */
    private static final Set<String> CODE_DEFAULTS = Set.of("openrag.qdrant.host");
    /**
     * Loopback values that are right in a container: the address the app binds (the images set 0.0.0.0), the UI's origins
     * (where a browser finds the UI, not an address the app calls).
     */
    private static final Set<String> NOT_ADDRESSES = Set.of("quarkus.http.host", "quarkus.http.cors.origins", "openrag.ui.origins");

    private Deployments() {
    }

    /** The settings of an app whose default points at this machine: each must be set to a real address when deployed. */
    static Set<String> loopbackAddresses(Path module) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(module.resolve("src/main/resources/application.properties"))) {
            properties.load(reader);
        }
        Set<String> keys = new TreeSet<>(CODE_DEFAULTS);
        for (String key : properties.stringPropertyNames()) {
            String value = properties.getProperty(key);
            if (!key.startsWith("%") && !NOT_ADDRESSES.contains(key) && (value.contains("127.0.0.1") || value.contains("localhost"))) {
                keys.add(key);
            }
        }
        return keys;
    }

    /** Every environment variable a setting of one of the apps maps to (a variable no app reads is a typo). */
    static Set<String> variablesTheAppsRead(Path root, List<String> apps) throws IOException {
        Set<String> variables = new TreeSet<>();
        CODE_DEFAULTS.forEach(key -> variables.add(envVar(key)));
        variables.add(envVar("openrag.qdrant.port"));
        variables.add("OPENRAG_AUTH_ADMIN_KEY"); // read by the shared auth code, with no default on purpose
        variables.add("OPENRAG_HTTP_ALLOWED_HOSTS"); // read by the shared Host check, none by default
        variables.add("OPENRAG_SECRETS_KEY"); // read by ingest-pipeline's SecretBox, none by default (a key file instead)
        variables.add("QUARKUS_NEO4J_AUTHENTICATION_PASSWORD"); // read by the shared Neo4j driver, never set in a file
        variables.add("JAVA_TOOL_OPTIONS"); // read by the JVM
        List<Path> files = new ArrayList<>();
        apps.forEach(app -> files.add(root.resolve(app).resolve("src/main/resources/application.properties")));
        files.add(root.resolve("knowledge-store/src/main/resources/META-INF/microprofile-config.properties")); // the apps' shared defaults
        for (Path file : files) {
            Properties properties = new Properties();
            try (Reader reader = Files.newBufferedReader(file)) {
                properties.load(reader);
            }
            properties.stringPropertyNames().stream().filter(key -> !key.startsWith("%")).map(Deployments::envVar).forEach(variables::add);
            // and the variables named in values, e.g. ${OTEL_SDK_DISABLED:true}
            properties.stringPropertyNames().forEach(key -> java.util.regex.Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)[:}]")
                    .matcher(properties.getProperty(key)).results().forEach(match -> variables.add(match.group(1))));
        }
        return variables;
    }

    /** The environment variable Quarkus maps to a setting: non-alphanumerics become '_', upper case. */
    static String envVar(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    /** The host of "http://host:port/...", "bolt://host:port", "host:port" or "host". */
    static String host(String address) {
        String rest = address.replaceFirst("^[a-z]+://", "");
        return rest.split("[:/]")[0];
    }

    /** A dependency cycle as its services in order, or empty. */
    static List<String> cycle(Map<String, List<String>> edges) {
        for (String start : edges.keySet()) {
            List<String> path = new ArrayList<>();
            if (reaches(start, start, edges, path, new TreeSet<>())) {
                return path;
            }
        }
        return List.of();
    }

    private static boolean reaches(String from, String target, Map<String, List<String>> edges, List<String> path, Set<String> seen) {
        for (String next : edges.getOrDefault(from, List.of())) {
            path.add(next);
            if (next.equals(target) || (seen.add(next) && reaches(next, target, edges, path, seen))) {
                return true;
            }
            path.remove(path.size() - 1);
        }
        return false;
    }
}
