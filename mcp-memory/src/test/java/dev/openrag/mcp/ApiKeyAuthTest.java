package dev.openrag.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.access.ApiKey;
import dev.openrag.knowledge.access.KeySecrets;
import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.port.KeyStore;
import dev.openrag.localstack.test.AppSettings;
import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/**
 * The shared key model on MCP (real Neo4j holds the keys): without a valid key the endpoints
 * answer 401; a key reaches only its scopes and collections; a read key changes nothing; a revoked
 * key stops working at the next request. The other MCP tests run with auth off.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
@WithTestResource(value = AppSettings.class, initArgs = @ResourceArg(name = "openrag.auth.admin-key", value = "mcp-test-admin-key"))
class ApiKeyAuthTest {

    @TestHTTPResource("/")
    URL root;

    @Inject
    KeyStore keys;

    private String base() {
        return root.toString().replaceAll("/$", "");
    }

    /** Stores a key as {@code POST /api/keys} would; returns its secret. */
    private String key(Role role, Set<String> collections, Set<String> scopes) {
        String secret = KeySecrets.newSecret();
        keys.create(new ApiKey(UUID.randomUUID().toString(), "test " + role.id(), role, collections, scopes, Instant.now(), null),
                KeySecrets.hash(secret));
        return secret;
    }

    @Test
    void requestsWithoutAValidKeyAreRefused() {
        assertThat(RawMcp.post(base(), null, Map.of("jsonrpc", "2.0", "id", 1, "method", "ping")).statusCode()).isEqualTo(401);
        RestAssured.given().header("Authorization", "Bearer wrong-key").contentType("application/json")
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").post("/mcp").then().statusCode(401);
        // the SDK's SSE client only times out on a refused stream: check the status itself
        RestAssured.given().get("/mcp/sse").then().statusCode(401).header("WWW-Authenticate", "Bearer realm=\"openrag\"");
        RestAssured.given().get("/q/health/ready").then().statusCode(200);
    }

    @Test
    void aKeyReachesOnlyItsScopes() {
        String alphaKey = key(Role.WRITE, Set.of("default"), Set.of("alpha", "shared"));
        try (McpTestClient alpha = McpTestClient.connect(base(), McpTestClient.Transport.STREAMABLE_HTTP, alphaKey);
             McpTestClient admin = McpTestClient.connect(base(), McpTestClient.Transport.SSE, "mcp-test-admin-key")) {
            String own = alpha.call("add_memory", Map.of("text", "alpha's note", "scope", "alpha")).get("id").asText();
            assertThat(alpha.callError("add_memory", Map.of("text", "sneaky", "scope", "beta")))
                    .contains("may not use scope 'beta'");
            assertThat(alpha.callError("list_memories", Map.of("scope", "beta"))).contains("may not use scope 'beta'");

            String foreign = admin.call("add_memory", Map.of("text", "beta's secret", "scope", "beta")).get("id").asText();
            assertThat(admin.call("get_memory", Map.of("id", own)).get("scope").asText()).isEqualTo("alpha");
            assertThat(alpha.callError("get_memory", Map.of("id", foreign))).contains("no memory with id");
            assertThat(alpha.callError("delete_memory", Map.of("id", foreign))).contains("no memory with id");
            assertThat(admin.call("get_memory", Map.of("id", foreign)).get("text").asText()).isEqualTo("beta's secret");

            // collections: the knowledge tools refuse one the key is not granted, before any call or publish
            assertThat(alpha.callError("search_knowledge", Map.of("query", "anything", "collection", "finance")))
                    .contains("not granted collection 'finance'");
            assertThat(alpha.callError("ingest_document", Map.of("text", "planted text", "collection", "finance")))
                    .contains("not granted collection 'finance'");
            // a correction of a chunk: its collection must be granted too, checked before asking whether it exists
            assertThat(alpha.callError("submit_correction", Map.of("correction", "x", "scope", "alpha",
                    "chunkId", "finance/report.md#0"))).contains("not granted collection 'finance'");
            assertThat(alpha.callError("submit_correction", Map.of("correction", "x", "scope", "alpha",
                    "chunkId", "default/nope.md#0"))).contains("no chunk with id 'default/nope.md#0'");
            assertThat(alpha.callError("submit_correction", Map.of("correction", "x", "scope", "alpha", "chunkId", "no-slash")))
                    .contains("chunk ids look like collection/documentId#index");
        }
    }

    @Test
    void aReadKeyReadsButChangesNothing() {
        String writer = key(Role.WRITE, Set.of("*"), Set.of("team"));
        String reader = key(Role.READ, Set.of("*"), Set.of("team"));
        try (McpTestClient write = McpTestClient.connect(base(), McpTestClient.Transport.STREAMABLE_HTTP, writer);
             McpTestClient read = McpTestClient.connect(base(), McpTestClient.Transport.STREAMABLE_HTTP, reader)) {
            String id = write.call("add_memory", Map.of("text", "the release train leaves on Thursdays", "scope", "team")).get("id").asText();
            assertThat(read.call("get_memory", Map.of("id", id)).get("text").asText()).contains("Thursdays");
            assertThat(read.call("search_memory", Map.of("scope", "team", "query", "release day")).get("results").size()).isPositive();
            for (var change : List.of(
                    Map.entry("add_memory", Map.<String, Object>of("text", "x", "scope", "team")),
                    Map.entry("delete_memory", Map.<String, Object>of("id", id)),
                    Map.entry("pin_memory", Map.<String, Object>of("id", id)),
                    Map.entry("forget_memory", Map.<String, Object>of("id", id)),
                    Map.entry("create_conversation", Map.<String, Object>of("scope", "team")),
                    Map.entry("submit_correction", Map.<String, Object>of("correction", "x", "scope", "team", "query", "q")),
                    Map.entry("ingest_document", Map.<String, Object>of("text", "planted")))) {
                assertThat(read.callError(change.getKey(), change.getValue())).as(change.getKey()).contains("read role");
            }
            var forgottenAt = write.call("get_memory", Map.of("id", id)).path("forgottenAt");
            assertThat(forgottenAt.isNull() || forgottenAt.isMissingNode()).as("the read key's forget had no effect").isTrue();
        }
    }

    @Test
    void aRevokedKeyStopsWorkingAtOnce() {
        String secret = key(Role.WRITE, Set.of("*"), Set.of("gamma"));
        McpTestClient gamma = McpTestClient.connect(base(), McpTestClient.Transport.STREAMABLE_HTTP, secret);
        try {
            gamma.call("add_memory", Map.of("text", "before revocation", "scope", "gamma"));
            String id = keys.findActive(KeySecrets.hash(secret)).orElseThrow().id();
            assertThat(keys.revoke(id)).isTrue();
            RestAssured.given().header("Authorization", "Bearer " + secret).contentType("application/json")
                    .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").post("/mcp").then().statusCode(401);
        } finally {
            gamma.closeAbruptly(); // its key is revoked: the server refuses its goodbye too
        }
    }
}
