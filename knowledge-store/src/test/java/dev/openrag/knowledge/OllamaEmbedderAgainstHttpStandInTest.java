package dev.openrag.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.embedding.OllamaEmbedder;
import dev.openrag.localstack.test.OllamaApiStandIn;

/** Ollama embeddings through LangChain4j's real client against {@link OllamaApiStandIn}. */
class OllamaEmbedderAgainstHttpStandInTest {

    @Test
    void embedsABatchInOrderAndNamesTheModel() throws Exception {
        try (OllamaApiStandIn ollama = new OllamaApiStandIn(0, prompt -> "")) {
            OllamaEmbedder embedder = new OllamaEmbedder(ollama.url(), "nomic-embed-text", 3, Duration.ofSeconds(5));

            List<float[]> vectors = embedder.embed(List.of("ab", "abcd"));

            assertThat(vectors).hasSize(2);
            assertThat(vectors.get(0)).containsExactly(2f, 1f, 0f);
            assertThat(vectors.get(1)).containsExactly(4f, 1f, 0f);
            assertThat(embedder.embedQuery("xyz")).containsExactly(3f, 1f, 0f);
            assertThat(embedder.modelName()).isEqualTo("ollama:nomic-embed-text");
        }
    }

    @Test
    void aDimensionMismatchIsAClearError() throws Exception {
        try (OllamaApiStandIn ollama = new OllamaApiStandIn(0, prompt -> "")) {
            OllamaEmbedder embedder = new OllamaEmbedder(ollama.url(), "other-model", 768, Duration.ofSeconds(5));

            assertThatThrownBy(() -> embedder.embed(List.of("text")))
                    .hasMessageContaining("returns 3-dimensional vectors but openrag.embedding.dimension is 768");
        }
    }
}
