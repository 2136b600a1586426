package dev.openrag.knowledge;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

/**
 * A STAND-IN for an Ollama server (no LLM runs here): a local HTTP server speaking Ollama's
 * {@code /api/chat} (each request answered with {@code reply(prompt)} after a delay; it counts
 * calls and the most in flight at once) and {@code /api/embed} (vector = [text length, 1, 0]).
 */
final class OllamaApiStandIn implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final AtomicInteger calls = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final HttpServer server;

    OllamaApiStandIn(long delayMillis, UnaryOperator<String> reply) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(16));
        server.createContext("/api/chat", exchange -> {
            String prompt = JSON.readTree(exchange.getRequestBody().readAllBytes()).path("messages").path(0).path("content").asText();
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            calls.incrementAndGet();
            try {
                Thread.sleep(delayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            inFlight.decrementAndGet();
            byte[] body = JSON.writeValueAsBytes(java.util.Map.of("model", "stand-in", "created_at", "2026-11-22T00:00:00Z",
                    "message", java.util.Map.of("role", "assistant", "content", reply.apply(prompt)),
                    "done", true, "done_reason", "stop", "prompt_eval_count", 10, "eval_count", 5));
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            } catch (IOException clientGone) {
                // the client timed out and closed the connection
            }
        });
        server.createContext("/api/embed", exchange -> {
            var request = JSON.readTree(exchange.getRequestBody().readAllBytes());
            calls.incrementAndGet();
            java.util.List<float[]> embeddings = new java.util.ArrayList<>();
            request.path("input").forEach(text -> embeddings.add(new float[] {text.asText().length(), 1f, 0f}));
            byte[] body = JSON.writeValueAsBytes(java.util.Map.of("model", request.path("model").asText(), "embeddings", embeddings));
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
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
