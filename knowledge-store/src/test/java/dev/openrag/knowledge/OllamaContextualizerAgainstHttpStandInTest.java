package dev.openrag.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.contextual.OllamaContextualizer;
import dev.openrag.knowledge.contextual.StructuralContextualizer;
import dev.openrag.schemas.Chunk;
import dev.openrag.localstack.test.OllamaApiStandIn;

/**
 * The Ollama contextualizer, through LangChain4j's real Ollama client, against a local HTTP
 * STAND-IN that speaks Ollama's /api/chat (no LLM can run here). It counts concurrent calls.
 */
class OllamaContextualizerAgainstHttpStandInTest {

    private OllamaApiStandIn server;

    private String startStandIn(long delayMillis) throws IOException {
        server = new OllamaApiStandIn(delayMillis,
                prompt -> "LLM context for " + prompt.replaceAll("(?s).*<chunk>\\n(chunk \\d+).*", "$1"));
        return server.url();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
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
        assertThat(server.calls.get()).isEqualTo(8);
        assertThat(server.maxInFlight.get()).as("never more than 2 calls in flight").isEqualTo(2);
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
