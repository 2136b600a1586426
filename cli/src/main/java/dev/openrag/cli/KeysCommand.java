package dev.openrag.cli;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code openrag keys create|list|revoke}: API keys (an admin key in {@code OPENRAG_API_KEY}),
 * kept in Neo4j by query-api and honoured by every app.
 */
@Command(name = "keys", description = "API keys: create (the secret is shown once), list, revoke. Needs an admin key in OPENRAG_API_KEY.",
        subcommands = {KeysCommand.Create.class, KeysCommand.List.class, KeysCommand.Revoke.class})
class KeysCommand implements Runnable {

    private static final ObjectMapper JSON = new ObjectMapper();

    static class Target {
        @Option(names = "--query-url", defaultValue = "${env:OPENRAG_QUERY_API_URL:-http://127.0.0.1:8080}", description = "query-api URL")
        String url;
    }

    @Override
    public void run() {
        System.out.println("usage: openrag keys create --name N --role read|write|admin [--collections a,b|*] [--scopes s,t|*]"
                + " | keys list | keys revoke ID");
    }

    @Command(name = "create", description = "Create a key; prints its id and, once, its secret.")
    static class Create implements Callable<Integer> {
        @Mixin
        Target target;

        @Option(names = "--name", required = true, description = "who or what the key is for")
        String name;

        @Option(names = "--role", required = true, description = "read, write or admin")
        String role;

        @Option(names = "--collections", split = ",", defaultValue = "", description = "granted collections, comma-separated ('*': all)")
        java.util.List<String> collections;

        @Option(names = "--scopes", split = ",", defaultValue = "", description = "granted memory scopes, comma-separated ('*': all)")
        java.util.List<String> scopes;

        @Override
        public Integer call() throws Exception {
            JsonNode created = new ApiClient(target.url).postJson("/api/keys", JSON.writeValueAsString(Map.of("name", name, "role", role,
                    "collections", collections.stream().filter(c -> !c.isBlank()).toList(),
                    "scopes", scopes.stream().filter(s -> !s.isBlank()).toList())));
            JsonNode key = created.path("key");
            System.out.println("key " + describe(key));
            System.out.println("secret " + created.path("secret").asText() + "   (shown once: keep it now, e.g. export OPENRAG_API_KEY=...)");
            return 0;
        }
    }

    @Command(name = "list", description = "Every key: id, role, what it grants, revoked or not (never a secret).")
    static class List implements Callable<Integer> {
        @Mixin
        Target target;

        @Override
        public Integer call() {
            JsonNode keys = new ApiClient(target.url).get("/api/keys").path("keys");
            for (JsonNode key : keys) {
                System.out.println(describe(key) + (key.path("revokedAt").isNull() || key.path("revokedAt").isMissingNode()
                        ? "" : " revoked=" + key.path("revokedAt").asText()));
            }
            System.out.println("keys=" + keys.size());
            return 0;
        }
    }

    @Command(name = "revoke", description = "Revoke a key by id: it stops working at once in every app.")
    static class Revoke implements Callable<Integer> {
        @Mixin
        Target target;

        @Parameters(index = "0", description = "the key's id (from keys list)")
        String id;

        @Override
        public Integer call() {
            new ApiClient(target.url).delete("/api/keys/" + URLEncoder.encode(id, StandardCharsets.UTF_8));
            System.out.println("revoked " + id);
            return 0;
        }
    }

    static String describe(JsonNode key) {
        return "id=" + key.path("id").asText() + " name=\"" + key.path("name").asText() + "\" role=" + key.path("role").asText()
                + " collections=" + join(key.path("collections")) + " scopes=" + join(key.path("scopes"));
    }

    private static String join(JsonNode values) {
        java.util.List<String> names = new ArrayList<>();
        values.forEach(value -> names.add(value.asText()));
        return names.isEmpty() ? "-" : String.join(",", names.stream().sorted().toList());
    }
}
