package dev.openrag.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** With Neo4j unreachable, memory tools fail as tool errors naming the engine, never as internal errors. */
@QuarkusTest
@TestProfile(Neo4jDownToolsTest.Neo4jDown.class)
class Neo4jDownToolsTest {

    public static class Neo4jDown implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(LocalStackTestResource.class,
                    Map.of(LocalStackTestResource.UNREACHABLE, "neo4j")));
        }
    }

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
