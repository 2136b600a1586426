package dev.openrag.cli;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code openrag credentials create|list|update|delete}: named login values for crawls, kept sealed by
 * ingest-pipeline (an admin key in {@code OPENRAG_API_KEY} when auth is on), each bound to the sites
 * (origins) it may be typed into. A crawl's login names one ({@code {"credential": "NAME", "field":
 * "password"}}); no command ever prints a value.
 */
@Command(name = "credentials", description = "Login values for crawls, bound to their sites: create, list (never a value), update, delete."
        + " Needs an admin key in OPENRAG_API_KEY.",
        subcommands = {CredentialsCommand.Create.class, CredentialsCommand.List.class, CredentialsCommand.Update.class,
                CredentialsCommand.Delete.class})
class CredentialsCommand implements Runnable {

    private static final ObjectMapper JSON = new ObjectMapper();

    static class Target {
        @Option(names = "--url", defaultValue = "${env:OPENRAG_INGEST_URL:-http://127.0.0.1:8081}", description = "ingest-pipeline URL")
        String url;
    }

    @Override
    public void run() {
        System.out.println("usage: openrag credentials create --name N --collections a,b|* --sites https://host[:port],..."
                + " (--value FIELD=VALUE | --value-env FIELD=VAR)... | credentials list"
                + " | credentials update NAME [--sites ...] [--collections ...] | credentials delete NAME");
    }

    @Command(name = "create", description = "Store a credential; its values are sealed by the server and never shown again.")
    static class Create implements Callable<Integer> {
        @Mixin
        Target target;

        @Option(names = "--name", required = true, description = "the name crawls use")
        String name;

        @Option(names = "--collections", required = true, split = ",", description = "collections whose crawls may use it ('*': all)")
        java.util.List<String> collections;

        @Option(names = "--sites", required = true, split = ",",
                description = "the origins its values may be typed into, e.g. https://intranet.example.com,http://wiki.local:8080")
        java.util.List<String> sites;

        @Option(names = "--value", description = "FIELD=VALUE (note: a shell keeps command lines in its history)")
        java.util.List<String> values = new ArrayList<>();

        @Option(names = "--value-env", description = "FIELD=VAR: the value of this command's own environment variable VAR")
        java.util.List<String> fromEnvironment = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            Map<String, String> fields = new LinkedHashMap<>();
            for (String value : values) {
                String[] pair = split(value, "--value");
                fields.put(pair[0], pair[1]);
            }
            for (String reference : fromEnvironment) {
                String[] pair = split(reference, "--value-env");
                String value = System.getenv(pair[1]);
                if (value == null) {
                    throw new IllegalArgumentException("--value-env " + reference + ": variable " + pair[1] + " is not set");
                }
                fields.put(pair[0], value);
            }
            if (fields.isEmpty()) {
                throw new IllegalArgumentException("give at least one --value FIELD=VALUE or --value-env FIELD=VAR");
            }
            JsonNode created = new ApiClient(target.url).postJson("/api/credentials",
                    JSON.writeValueAsString(Map.of("name", name, "collections", collections, "sites", sites, "values", fields)));
            System.out.println("credential " + describe(created));
            return 0;
        }

        private static String[] split(String pair, String option) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                // never the text itself: without its "FIELD=" it may be the value alone
                throw new IllegalArgumentException(option + " takes FIELD=...; one of them does not start with a field name and '='");
            }
            return new String[] {pair.substring(0, equals), pair.substring(equals + 1)};
        }
    }

    @Command(name = "list", description = "Every credential: name, collections, sites, field names, state (never a value).")
    static class List implements Callable<Integer> {
        @Mixin
        Target target;

        @Override
        public Integer call() {
            JsonNode credentials = new ApiClient(target.url).get("/api/credentials").path("credentials");
            credentials.forEach(credential -> System.out.println("credential " + describe(credential)));
            System.out.println("credentials=" + credentials.size());
            return 0;
        }
    }

    @Command(name = "update", description = "Replace a credential's sites and/or collections (its values stay); a credential"
            + " without sites is unusable until it has some.")
    static class Update implements Callable<Integer> {
        @Mixin
        Target target;

        @Parameters(index = "0", description = "the credential's name")
        String name;

        @Option(names = "--sites", split = ",", description = "the origins its values may be typed into (replaces the list)")
        java.util.List<String> sites;

        @Option(names = "--collections", split = ",", description = "collections whose crawls may use it (replaces the list)")
        java.util.List<String> collections;

        @Override
        public Integer call() throws Exception {
            Map<String, Object> update = new LinkedHashMap<>();
            if (sites != null) {
                update.put("sites", sites);
            }
            if (collections != null) {
                update.put("collections", collections);
            }
            if (update.isEmpty()) {
                throw new IllegalArgumentException("give --sites and/or --collections");
            }
            JsonNode updated = new ApiClient(target.url).patchJson("/api/credentials/" + URLEncoder.encode(name, StandardCharsets.UTF_8),
                    JSON.writeValueAsString(update));
            System.out.println("credential " + describe(updated));
            return 0;
        }
    }

    @Command(name = "delete", description = "Delete a credential: crawls naming it fail to log in, with the reason.")
    static class Delete implements Callable<Integer> {
        @Mixin
        Target target;

        @Parameters(index = "0", description = "the credential's name")
        String name;

        @Override
        public Integer call() {
            new ApiClient(target.url).delete("/api/credentials/" + URLEncoder.encode(name, StandardCharsets.UTF_8));
            System.out.println("deleted " + name);
            return 0;
        }
    }

    /** One line per credential; an unusable one says why on the next line. */
    static String describe(JsonNode credential) {
        String line = "name=" + credential.path("name").asText() + " collections=" + join(credential.path("collections"))
                + " sites=" + join(credential.path("sites")) + " fields=" + join(credential.path("fields"))
                + " state=" + credential.path("state").asText("-");
        return credential.hasNonNull("reason") ? line + System.lineSeparator() + "  " + credential.path("reason").asText() : line;
    }

    private static String join(JsonNode values) {
        java.util.List<String> names = new ArrayList<>();
        values.forEach(value -> names.add(value.asText()));
        return names.isEmpty() ? "-" : String.join(",", names);
    }
}
