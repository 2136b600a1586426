package dev.openrag.localstack.test;

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
 * {@code /api/chat} (each request answered with {@code reply(prompt)} after a delay, streamed as
 * one NDJSON chunk per word when the request asks for {@code stream}; it counts calls and the most
 * in flight at once; the prompt is the last message, the system prompt and the other messages are joined into {@link #lastPrompt}) and {@code /api/embed} (vector = [text length, 1, 0]).
 */
public final class OllamaApiStandIn implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    public final AtomicInteger calls = new AtomicInteger();
    public final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Every message of the last chat request, joined: what the model was shown. */
    public volatile String lastPrompt = "";
    private final HttpServer server;

    public OllamaApiStandIn(long delayMillis, UnaryOperator<String> reply) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(16));
        server.createContext("/api/chat", exchange -> {
            var request = JSON.readTree(exchange.getRequestBody().readAllBytes());
            StringBuilder all = new StringBuilder();
            request.path("messages").forEach(message -> all.append(message.path("content").asText()).append('\n'));
            lastPrompt = all.toString();
            var messages = request.path("messages");
            String prompt = messages.path(messages.size() - 1).path("content").asText();
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            calls.incrementAndGet();
            try {
                Thread.sleep(delayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            inFlight.decrementAndGet();
            String answer = reply.apply(prompt);
            if (request.path("stream").asBoolean(false)) {
                streamWords(exchange, answer);
                return;
            }
            byte[] body = JSON.writeValueAsBytes(java.util.Map.of("model", "stand-in", "created_at", "2026-11-22T00:00:00Z",
                    "message", java.util.Map.of("role", "assistant", "content", answer),
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

    private static void streamWords(com.sun.net.httpserver.HttpExchange exchange, String answer) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "application/x-ndjson");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            for (String token : answer.split("(?<= )")) {
                out.write(JSON.writeValueAsBytes(java.util.Map.of("model", "stand-in", "created_at", "2026-11-22T00:00:00Z",
                        "message", java.util.Map.of("role", "assistant", "content", token), "done", false)));
                out.write('\n');
                out.flush();
            }
            out.write(JSON.writeValueAsBytes(java.util.Map.of("model", "stand-in", "created_at", "2026-11-22T00:00:00Z",
                    "message", java.util.Map.of("role", "assistant", "content", ""), "done", true, "done_reason", "stop",
                    "prompt_eval_count", 10, "eval_count", 5)));
            out.write('\n');
        }
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
