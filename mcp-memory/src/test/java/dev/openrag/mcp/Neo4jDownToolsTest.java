package dev.openrag.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/** With Neo4j unreachable, memory tools fail as tool errors naming the engine, never as internal errors. */
@QuarkusTest
@WithTestResource(value = LocalStackTestResource.class,
        initArgs = @ResourceArg(name = LocalStackTestResource.UNREACHABLE, value = "neo4j"))
class Neo4jDownToolsTest {

    @TestHTTPResource("/")
    URL root;

    @Test
    void memoryToolsSayNeo4jIsUnavailable() {
        try (McpTestClient mcp = McpTestClient.connect(root.toString().replaceAll("/$", ""), McpTestClient.Transport.STREAMABLE_HTTP, null)) {
            for (var call : List.of(
                    Map.entry("add_memory", Map.<String, Object>of("scope", "agent-1", "text", "the sky is blue")),
                    Map.entry("search_memory", Map.<String, Object>of("scope", "agent-1", "query", "sky")),
                    Map.entry("list_memories", Map.<String, Object>of("scope", "agent-1")),
                    Map.entry("get_memory", Map.<String, Object>of("id", "m-1")),
                    Map.entry("list_corrections", Map.<String, Object>of("scope", "agent-1")))) {
                assertThat(mcp.callError(call.getKey(), call.getValue())).as(call.getKey())
                        .contains("neo4j is unavailable").doesNotContain("Exception");
            }
            // bad arguments are still answered first, with what is wrong
            assertThat(mcp.callError("list_memories", Map.of("scope", "agent-1", "page", 50_000_000))).contains("'page'");
        }
    }
}
