package dev.openrag.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.mcp.security.ApiKeys;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/**
 * Bearer API keys: with keys configured, MCP requests without a valid key get 401 and a key only
 * reaches its scopes; without keys everything is open (the other tests). The keys are swapped in
 * per test with QuarkusMock so the app (and its in-process ONNX model) starts once.
 */
@QuarkusTest
@QuarkusTestResource(value = LocalStackTestResource.class, restrictToAnnotatedClass = true)
class ApiKeyAuthTest {

    @TestHTTPResource("/")
    URL root;

    @BeforeEach
    void configureKeys() {
        QuarkusMock.installMockForType(new ApiKeys("alpha-key=alpha|shared,admin-key=*"), ApiKeys.class);
    }

    private String base() {
        return root.toString().replaceAll("/$", "");
    }

    @Test
    void requestsWithoutAValidKeyAreRefused() {
        assertThat(RawMcp.post(base(), null, Map.of("jsonrpc", "2.0", "id", 1, "method", "ping")).statusCode()).isEqualTo(401);
        RestAssured.given().header("Authorization", "Bearer wrong-key").contentType("application/json")
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").post("/mcp").then().statusCode(401);
        // the SDK's SSE client only times out on a refused stream: check the status itself
        RestAssured.given().get("/mcp/sse").then().statusCode(401).header("WWW-Authenticate", "Bearer realm=\"openrag-mcp\"");
        RestAssured.given().get("/q/health/ready").then().statusCode(200);
    }

    @Test
    void aKeyReachesOnlyItsScopes() {
        try (McpTestClient alpha = McpTestClient.connect(base(), McpTestClient.Transport.STREAMABLE_HTTP, "alpha-key");
             McpTestClient admin = McpTestClient.connect(base(), McpTestClient.Transport.SSE, "admin-key")) {
            String own = alpha.call("add_memory", Map.of("text", "alpha's note", "scope", "alpha")).get("id").asText();
            assertThat(alpha.callError("add_memory", Map.of("text", "sneaky", "scope", "beta")))
                    .contains("may not use scope 'beta'");
            assertThat(alpha.callError("list_memories", Map.of("scope", "beta"))).contains("may not use scope 'beta'");

            String foreign = admin.call("add_memory", Map.of("text", "beta's secret", "scope", "beta")).get("id").asText();
            assertThat(admin.call("get_memory", Map.of("id", own)).get("scope").asText()).isEqualTo("alpha");
            assertThat(alpha.callError("get_memory", Map.of("id", foreign))).contains("no memory with id");
            assertThat(alpha.callError("delete_memory", Map.of("id", foreign))).contains("no memory with id");
            assertThat(admin.call("get_memory", Map.of("id", foreign)).get("text").asText()).isEqualTo("beta's secret");
        }
    }
}
