package dev.openrag.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.net.URL;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * A filter or metadata argument of the wrong JSON type (a string, an array, a number where an object is expected) is
 * the tool's error (isError with a message naming the argument), not a protocol error or a stack trace.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FilterArgumentTypesTest {

    @TestHTTPResource("/")
    URL root;

    private McpTestClient mcp;

    @BeforeAll
    void connect() {
        mcp = McpTestClient.connect(root.toString().replaceAll("/$", ""), McpTestClient.Transport.STREAMABLE_HTTP, null);
    }

    @AfterAll
    void disconnect() {
        mcp.close();
    }

    /** The tool's answer, whatever it is; a protocol error fails the test with its message. */
    private McpSchema.CallToolResult raw(String tool, Map<String, Object> arguments) {
        McpSchema.CallToolResult[] result = new McpSchema.CallToolResult[1];
        assertThatCode(() -> result[0] = mcp.client.callTool(new McpSchema.CallToolRequest(tool, arguments)))
                .as(tool + " " + arguments + " must answer a tool result, not a protocol error").doesNotThrowAnyException();
        return result[0];
    }

    @Test
    void filtersOfTheWrongTypeAreToolErrorsNamingTheArgument() {
        String scope = "types-" + UUID.randomUUID().toString().substring(0, 8);
        mcp.call("add_memory", McpTestClient.args("text", "The backup runs at night", "scope", scope, "metadata", Map.of("team", "ops")));
        for (Object wrong : List.of("team=ops", "{\"team\": \"ops\"}", List.of(Map.of("team", "ops")), 5, true)) {
            for (String tool : List.of("search_memory", "list_memories")) {
                Map<String, Object> arguments = tool.equals("search_memory")
                        ? McpTestClient.args("query", "backup", "scope", scope, "filter", wrong) : McpTestClient.args("scope", scope, "filter", wrong);
                McpSchema.CallToolResult result = raw(tool, arguments);
                assertThat(result.isError()).as(tool + " with filter " + wrong + ": " + McpTestClient.text(result)).isTrue();
                assertThat(McpTestClient.text(result)).as(tool + " with filter " + wrong).contains("filter");
            }
            McpSchema.CallToolResult added = raw("add_memory", McpTestClient.args("text", "x", "scope", scope, "metadata", wrong));
            assertThat(added.isError()).as("add_memory with metadata " + wrong + ": " + McpTestClient.text(added)).isTrue();
            assertThat(McpTestClient.text(added)).contains("metadata");
        }
        // the knowledge tools convert their arguments the same way, before any call to query-api
        for (Object wrong : List.of("team=ops", List.of("team"), 5)) {
            for (String tool : List.of("search_knowledge", "ask")) {
                Map<String, Object> arguments = tool.equals("ask") ? McpTestClient.args("question", "backup?", "filter", wrong)
                        : McpTestClient.args("query", "backup", "filter", wrong);
                McpSchema.CallToolResult result = raw(tool, arguments);
                assertThat(result.isError()).as(tool + " with filter " + wrong + ": " + McpTestClient.text(result)).isTrue();
            }
        }
        McpSchema.CallToolResult star = raw("search_knowledge", McpTestClient.args("query", "backup", "collections", "*"));
        assertThat(McpTestClient.text(star)).as("collections \"*\" as a string").doesNotContain("argument 'collections'");
        // control: the same filter as an object
        assertThat(mcp.call("search_memory", McpTestClient.args("query", "backup", "scope", scope, "filter", Map.of("team", "ops")))
                .get("results")).hasSize(1);
    }
}
