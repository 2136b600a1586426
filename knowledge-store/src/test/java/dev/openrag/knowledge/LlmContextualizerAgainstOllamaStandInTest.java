package dev.openrag.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.contextual.LlmContextualizer;
import dev.openrag.knowledge.contextual.StructuralContextualizer;
import dev.openrag.knowledge.llm.LanguageModels;
import dev.openrag.knowledge.llm.LlmProvider;
import dev.openrag.knowledge.llm.LlmSettings;
import dev.openrag.knowledge.port.Contextualizer.Contexts;
import dev.openrag.localstack.test.OllamaApiStandIn;
import dev.openrag.schemas.Chunk;

/**
 * The LLM contextualizer, through LangChain4j's real Ollama client, against a local HTTP
 * STAND-IN that speaks Ollama's /api/chat (no LLM can run here). It counts concurrent calls.
 */
class LlmContextualizerAgainstOllamaStandInTest {

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

    private static LlmContextualizer contextualizer(String url, int maxInFlight, Duration timeout) {
        return new LlmContextualizer(LanguageModels.chat(new LlmSettings(LlmProvider.OLLAMA, "stand-in", url, null, timeout,
                maxInFlight, 0)), 10_000);
    }

    private static List<Chunk> chunks(int count) {
        return java.util.stream.IntStream.range(0, count)
                .mapToObj(i -> new Chunk("c/d#" + i, i, "chunk " + i, List.of(), 0, 0, null, null)).toList();
    }

    @Test
    void usesTheAnthropicPromptWithTheDocumentFirstAndNeverExceedsTheConcurrencyBound() throws IOException {
        String url = startStandIn(150);
        LlmContextualizer contextualizer = contextualizer(url, 2, Duration.ofSeconds(10));

        Contexts contexts = contextualizer.contextualize("Doc", "file:///doc.txt", "the whole document", chunks(8));

        assertThat(contexts.texts()).hasSize(8);
        assertThat(contexts.texts().get(0)).isEqualTo("LLM context for chunk 0");
        assertThat(contexts.texts().get(7)).isEqualTo("LLM context for chunk 7");
        assertThat(server.lastPrompt).startsWith("<document>\nthe whole document\n</document>");
        assertThat(server.calls.get()).isEqualTo(8);
        assertThat(server.maxInFlight.get()).as("never more than 2 calls in flight").isEqualTo(2);
        assertThat(contextualizer.name()).isEqualTo("llm:ollama:stand-in");
        assertThat(contexts.usage().calls()).isEqualTo(8);
        assertThat(contexts.usage().inputTokens()).as("Ollama's prompt_eval_count, 10 per call").isEqualTo(80);
        assertThat(contexts.warnings()).isEmpty();
    }

    @Test
    void aTimeoutFallsBackToTheStructuralContextWithAWarning() throws IOException {
        String url = startStandIn(3_000);
        LlmContextualizer contextualizer = contextualizer(url, 2, Duration.ofMillis(300));
        List<Chunk> chunks = chunks(2);

        Contexts contexts = contextualizer.contextualize("Doc", "file:///doc.txt", "the whole document", chunks);

        assertThat(contexts.texts()).isEqualTo(new StructuralContextualizer().contexts("Doc", "file:///doc.txt", "the whole document", chunks));
        assertThat(contexts.warnings()).singleElement().asString().startsWith("2 of 2 chunks got the structural context");
    }

    @Test
    void anUnreachableServerFallsBackToo() {
        int closedPort = dev.openrag.localstack.Ports.free();
        LlmContextualizer contextualizer = contextualizer("http://127.0.0.1:" + closedPort, 2, Duration.ofSeconds(2));

        Contexts contexts = contextualizer.contextualize("Doc", null, "the whole document", chunks(1));

        assertThat(contexts.texts().get(0)).startsWith("Document: Doc");
        assertThat(contexts.usage().calls()).isZero();
    }
}
