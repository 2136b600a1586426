package dev.openrag.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import dev.openrag.knowledge.contextual.OllamaContextualizer;
import dev.openrag.knowledge.contextual.StructuralContextualizer;
import dev.openrag.schemas.Chunk;

/**
 * The Ollama contextualizer, through LangChain4j's real Ollama client, against a local HTTP
 * STAND-IN that speaks Ollama's /api/chat (no LLM can run here). It counts concurrent calls.
 */
class OllamaContextualizerAgainstHttpStandInTest {

    private HttpServer server;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicInteger calls = new AtomicInteger();

    private String startStandIn(long delayMillis) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(16));
        server.createContext("/api/chat", exchange -> {
            String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            int now = inFlight.incrementAndGet();
            maxInFlight.accumulateAndGet(now, Math::max);
            calls.incrementAndGet();
            try {
                Thread.sleep(delayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            inFlight.decrementAndGet();
            String chunkNumber = request.replaceAll("(?s).*<chunk>\\\\n(chunk \\d+).*", "$1");
            byte[] body = ("{\"model\":\"stand-in\",\"created_at\":\"2026-11-22T00:00:00Z\",\"message\":{\"role\":\"assistant\","
                    + "\"content\":\"LLM context for " + chunkNumber + "\"},\"done\":true,\"done_reason\":\"stop\","
                    + "\"prompt_eval_count\":10,\"eval_count\":5}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            } catch (IOException clientGone) {
                // the client timed out and closed the connection
            }
        });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private static List<Chunk> chunks(int count) {
        return java.util.stream.IntStream.range(0, count)
                .mapToObj(i -> new Chunk("c/d#" + i, i, "chunk " + i, List.of(), 0, 0, null, null)).toList();
    }

    @Test
    void usesTheAnthropicPromptAndNeverExceedsTheConcurrencyBound() throws IOException {
        String url = startStandIn(150);
        OllamaContextualizer contextualizer = new OllamaContextualizer(url, "stand-in", 2, Duration.ofSeconds(10), 0, 10_000);

        List<String> contexts = contextualizer.contextualize("Doc", "file:///doc.txt", "the whole document", chunks(8));

        assertThat(contexts).hasSize(8);
        assertThat(contexts.get(0)).isEqualTo("LLM context for chunk 0");
        assertThat(contexts.get(7)).isEqualTo("LLM context for chunk 7");
        assertThat(calls.get()).isEqualTo(8);
        assertThat(maxInFlight.get()).as("never more than 2 calls in flight").isEqualTo(2);
        assertThat(contextualizer.name()).isEqualTo("ollama:stand-in");
    }

    @Test
    void aTimeoutFallsBackToTheStructuralContext() throws IOException {
        String url = startStandIn(3_000);
        OllamaContextualizer contextualizer = new OllamaContextualizer(url, "stand-in", 2, Duration.ofMillis(300), 0, 10_000);
        List<Chunk> chunks = chunks(2);

        List<String> contexts = contextualizer.contextualize("Doc", "file:///doc.txt", "the whole document", chunks);

        assertThat(contexts).isEqualTo(new StructuralContextualizer().contextualize("Doc", "file:///doc.txt", "the whole document", chunks));
    }

    @Test
    void anUnreachableOllamaFallsBackToo() {
        int closedPort = dev.openrag.localstack.Ports.free();
        OllamaContextualizer contextualizer = new OllamaContextualizer("http://127.0.0.1:" + closedPort, "stand-in", 2,
                Duration.ofSeconds(2), 0, 10_000);

        List<String> contexts = contextualizer.contextualize("Doc", null, "the whole document", chunks(1));

        assertThat(contexts.get(0)).startsWith("Document: Doc");
    }
}
