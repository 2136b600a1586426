package dev.openrag.mcp;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Plain JSON-RPC over streamable HTTP, for protocol details a client library hides (session, status codes). */
final class RawMcp {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private RawMcp() {
    }

    /** Initializes a session and makes one request in it; returns the JSON-RPC response. */
    static JsonNode call(String base, String method, Map<String, Object> params) {
        HttpResponse<String> init = post(base, null, Map.of("jsonrpc", "2.0", "id", 1, "method", "initialize", "params", Map.of(
                "protocolVersion", "2025-06-18", "capabilities", Map.of(),
                "clientInfo", Map.of("name", "raw", "version", "1"))));
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow(() ->
                new AssertionError("no Mcp-Session-Id on initialize: " + init.statusCode() + " " + init.body()));
        post(base, session, Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
        return parse(post(base, session, Map.of("jsonrpc", "2.0", "id", 2, "method", method, "params", params)).body());
    }

    static HttpResponse<String> post(String base, String session, Map<String, Object> body) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/mcp"))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
            if (session != null) {
                request.header("Mcp-Session-Id", session);
            }
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** A JSON body, or the data line of a one-event SSE body. */
    static JsonNode parse(String body) {
        try {
            String json = body.strip().startsWith("{") ? body : body.lines().filter(line -> line.startsWith("data:"))
                    .map(line -> line.substring(5).strip()).reduce((first, second) -> second).orElse(body);
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }
}
