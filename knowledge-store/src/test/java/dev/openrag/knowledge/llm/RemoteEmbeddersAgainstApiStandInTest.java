package dev.openrag.knowledge.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.openrag.knowledge.embedding.RemoteEmbedder;
import dev.openrag.localstack.test.LlmApiStandIn;
import dev.openrag.localstack.test.OllamaApiStandIn;

/**
 * Provider embeddings through LangChain4j's real clients against local STAND-INs of the APIs
 * ({@link OllamaApiStandIn}; {@link LlmApiStandIn} for OpenAI and Gemini): a batch in order,
 * the dimension asked for, and a dimension mismatch as a clear error.
 */
class RemoteEmbeddersAgainstApiStandInTest {

    @Test
    void ollamaEmbedsABatchInOrderAndNamesTheModel() throws Exception {
        try (OllamaApiStandIn ollama = new OllamaApiStandIn(0, prompt -> "")) {
            RemoteEmbedder embedder = new RemoteEmbedder("ollama:nomic-embed-text", LanguageModels.embeddings(LlmProvider.OLLAMA,
                    "nomic-embed-text", ollama.url(), null, Duration.ofSeconds(5), 3), 3);

            List<float[]> vectors = embedder.embed(List.of("ab", "abcd"));

            assertThat(vectors).hasSize(2);
            assertThat(vectors.get(0)).containsExactly(2f, 1f, 0f);
            assertThat(vectors.get(1)).containsExactly(4f, 1f, 0f);
            assertThat(embedder.embedQuery("xyz")).containsExactly(3f, 1f, 0f);
            assertThat(embedder.modelName()).isEqualTo("ollama:nomic-embed-text");
        }
    }

    @ParameterizedTest
    @EnumSource(value = LlmProvider.class, names = {"OPENAI", "GEMINI"})
    void hostedProvidersEmbedInOrderAtTheDimensionAskedFor(LlmProvider provider) throws Exception {
        try (LlmApiStandIn api = new LlmApiStandIn(0, request -> "")) {
            RemoteEmbedder embedder = new RemoteEmbedder(provider.id() + ":embed", LanguageModels.embeddings(provider, "embed",
                    api.url(), "key", Duration.ofSeconds(5), 4), 4);

            List<float[]> vectors = embedder.embed(List.of("ab", "abcde"));

            assertThat(vectors).hasSize(2);
            assertThat(vectors.get(0)).containsExactly(2f, 1f, 0f, 0f);
            assertThat(vectors.get(1)).containsExactly(5f, 1f, 0f, 0f);
        }
    }

    @Test
    void aDimensionMismatchIsAClearError() throws Exception {
        try (OllamaApiStandIn ollama = new OllamaApiStandIn(0, prompt -> "")) {
            RemoteEmbedder embedder = new RemoteEmbedder("ollama:other-model", LanguageModels.embeddings(LlmProvider.OLLAMA,
                    "other-model", ollama.url(), null, Duration.ofSeconds(5), 768), 768);

            assertThatThrownBy(() -> embedder.embed(List.of("text")))
                    .hasMessageContaining("ollama:other-model returns 3-dimensional vectors but openrag.embedding.dimension is 768");
        }
    }

    @Test
    void anthropicHasNoEmbeddings() {
        assertThatThrownBy(() -> LanguageModels.embeddings(LlmProvider.ANTHROPIC, "m", "http://x", "k", Duration.ofSeconds(1), 3))
                .hasMessageContaining("anthropic has no embedding models");
    }
}
