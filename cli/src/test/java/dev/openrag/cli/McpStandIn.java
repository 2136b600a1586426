package dev.openrag.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

/**
 * A stand-in for mcp-memory's streamable HTTP endpoint (JSON-RPC over POST /mcp) for the CLI's
 * benchmark tests: every tool call is answered with the text {@code answer} gives for the tool's
 * name and arguments, every other message with an empty result (mcp-memory's own tests cover the
 * real tools on Neo4j).
 */
final class McpStandIn implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;

    McpStandIn(BiFunction<String, JsonNode, Object> answer) {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/mcp", exchange -> {
            JsonNode message = JSON.readTree(exchange.getRequestBody());
            exchange.getResponseHeaders().add("Mcp-Session-Id", "stand-in");
            String tool = message.path("params").path("name").asText();
            Object text = tool.isEmpty() ? Map.of() : answer.apply(tool, message.path("params").path("arguments"));
            JsonAnswer.send(exchange, 200, JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", message.path("id").asLong(),
                    "result", Map.of("content", List.of(Map.of("type", "text", "text", JSON.writeValueAsString(text)))))));
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
