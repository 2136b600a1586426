package dev.openrag.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * The official MCP Java SDK client, over SSE ({@code /mcp/sse}) or streamable HTTP ({@code /mcp}),
 * with helpers that read a tool's JSON answer or its {@code isError} message.
 */
final class McpTestClient implements AutoCloseable {

    /** A tool call's arguments from key, value pairs (values may be null, unlike {@code Map.of}). */
    static Map<String, Object> args(Object... pairs) {
        Map<String, Object> args = new java.util.HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            args.put((String) pairs[i], pairs[i + 1]);
        }
        return args;
    }

    enum Transport { SSE, STREAMABLE_HTTP }

    private static final ObjectMapper JSON = new ObjectMapper();

    final McpSyncClient client;

    private McpTestClient(McpSyncClient client) {
        this.client = client;
    }

    static McpTestClient connect(String baseUrl, Transport transport, String apiKey) {
        McpClientTransport wire = switch (transport) {
            case SSE -> HttpClientSseClientTransport.builder(baseUrl).sseEndpoint("/mcp/sse")
                    .customizeRequest(request -> authorize(request, apiKey)).build();
            case STREAMABLE_HTTP -> HttpClientStreamableHttpTransport.builder(baseUrl).endpoint("/mcp")
                    .customizeRequest(request -> authorize(request, apiKey)).build();
        };
        McpSyncClient client = McpClient.sync(wire).requestTimeout(Duration.ofSeconds(60))
                .clientInfo(new McpSchema.Implementation("openrag-tests", "1.0")).build();
        client.initialize();
        return new McpTestClient(client);
    }

    private static void authorize(java.net.http.HttpRequest.Builder request, String apiKey) {
        if (apiKey != null) {
            request.header("Authorization", "Bearer " + apiKey);
        }
    }

    /** Calls a tool that must succeed; returns its JSON answer. */
    JsonNode call(String tool, Map<String, Object> arguments) {
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(tool, arguments));
        assertThat(result.isError()).as(tool + " failed: " + text(result)).isNotEqualTo(Boolean.TRUE);
        try {
            return JSON.readTree(text(result));
        } catch (Exception e) {
            throw new AssertionError(tool + " did not answer JSON: " + text(result), e);
        }
    }

    /** Calls a tool that must fail; returns its error message. */
    String callError(String tool, Map<String, Object> arguments) {
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(tool, arguments));
        assertThat(result.isError()).as(tool + " should fail but answered " + text(result)).isTrue();
        return text(result);
    }

    /** The ids a memory, as a tool returned it, supersedes (its links of type supersedes). */
    static List<String> superseded(JsonNode memory) {
        List<String> ids = new ArrayList<>();
        memory.path("links").forEach(link -> {
            if ("supersedes".equals(link.path("type").asText())) {
                ids.add(link.path("toId").asText());
            }
        });
        return ids;
    }

    /** The ids a memory, as a tool returned it, is suggested to replace (its links of type suggested_supersedes). */
    static List<String> suggested(JsonNode memory) {
        List<String> ids = new ArrayList<>();
        memory.path("links").forEach(link -> {
            if ("suggested_supersedes".equals(link.path("type").asText())) {
                ids.add(link.path("toId").asText());
            }
        });
        return ids;
    }

    static String text(McpSchema.CallToolResult result) {
        return result.content().stream().filter(McpSchema.TextContent.class::isInstance)
                .map(content -> ((McpSchema.TextContent) content).text()).findFirst().orElse("");
    }

    @Override
    public void close() {
        client.closeGracefully();
    }

    /**
     * Closes without ending the session on the server: for a client whose key was revoked, whose goodbye the server
     * refuses (a graceful close would wait out its 10 s for it).
     */
    public void closeAbruptly() {
        client.close();
    }
}
