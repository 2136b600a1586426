package dev.openrag.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.localstack.LocalStackException;

/**
 * A minimal MCP client over streamable HTTP ({@code POST /mcp}, JSON-RPC, {@code Mcp-Session-Id})
 * for the CLI's benchmarks: initialize once, then call tools and read their JSON answers.
 */
final class McpSession {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicLong ids = new AtomicLong();
    private final URI endpoint;
    private final String session;

    McpSession(String baseUrl) {
        this.endpoint = URI.create(baseUrl.replaceAll("/+$", "") + "/mcp");
        HttpResponse<String> init = post(null, Map.of("jsonrpc", "2.0", "id", ids.incrementAndGet(), "method", "initialize",
                "params", Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(),
                        "clientInfo", Map.of("name", "openrag-cli", "version", "0.1.0"))));
        this.session = init.headers().firstValue("Mcp-Session-Id").orElseThrow(() -> new LocalStackException(
                "mcp-memory at " + endpoint + " did not open a session (HTTP " + init.statusCode() + ")"));
        post(session, Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
    }

    /** Calls a tool; its JSON answer, or an exception with the tool's error message. */
    JsonNode call(String tool, Map<String, Object> arguments) {
        JsonNode response = body(post(session, Map.of("jsonrpc", "2.0", "id", ids.incrementAndGet(), "method", "tools/call",
                "params", Map.of("name", tool, "arguments", arguments))));
        JsonNode result = response.path("result");
        String text = result.path("content").path(0).path("text").asText();
        if (response.has("error") || result.path("isError").asBoolean(false)) {
            throw new LocalStackException(tool + " failed: " + (response.has("error") ? response.get("error") : text));
        }
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new LocalStackException(tool + " answered something that is not JSON: " + text);
        }
    }

    private HttpResponse<String> post(String sessionId, Map<String, Object> message) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(message)));
            if (sessionId != null) {
                request.header("Mcp-Session-Id", sessionId);
            }
            String apiKey = ApiClient.apiKeyFromEnvironment();
            if (apiKey != null && !apiKey.isBlank()) {
                request.header("Authorization", "Bearer " + apiKey.strip());
            }
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new LocalStackException("mcp-memory at " + endpoint + " is unreachable (" + e.getMessage()
                    + "); start it with ./openrag up");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalStackException("interrupted");
        }
    }

    /** A JSON body, or the last data line of an SSE body. */
    private static JsonNode body(HttpResponse<String> response) {
        String body = response.body().strip();
        String json = body.startsWith("{") ? body : body.lines().filter(line -> line.startsWith("data:"))
                .map(line -> line.substring(5).strip()).reduce((first, second) -> second).orElse(body);
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new LocalStackException("mcp-memory answered HTTP " + response.statusCode() + ": " + body);
        }
    }
}
