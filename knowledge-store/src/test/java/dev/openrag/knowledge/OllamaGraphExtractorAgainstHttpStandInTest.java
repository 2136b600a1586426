package dev.openrag.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.contextual.OllamaGraphExtractor;
import dev.openrag.localstack.test.OllamaApiStandIn;

/** The LLM graph extractor through LangChain4j's Ollama client against {@link OllamaApiStandIn}. */
class OllamaGraphExtractorAgainstHttpStandInTest {

    @Test
    void readsEntitiesAndRelationsFromTheModelsJson() throws Exception {
        try (OllamaApiStandIn ollama = new OllamaApiStandIn(0, prompt -> prompt.contains("Ada Lovelace")
                ? "{\"entities\":[{\"name\":\"Ada Lovelace\",\"type\":\"Person\"},{\"name\":\"Analytical Engine\",\"type\":\"product\"}],"
                  + "\"relations\":[{\"from\":\"Ada Lovelace\",\"to\":\"Analytical Engine\",\"type\":\"programmed\"}]}"
                : "{}")) {
            OllamaGraphExtractor extractor = new OllamaGraphExtractor(ollama.url(), "stand-in", 2, Duration.ofSeconds(5));

            OllamaGraphExtractor.Found found = extractor.extract("Ada Lovelace wrote programs for the Analytical Engine.");

            assertThat(found.entities()).extracting(e -> e[0] + "/" + e[1]).containsExactly("Ada Lovelace/person", "Analytical Engine/product");
            assertThat(found.relations()).extracting(r -> r[0] + " -" + r[2] + "-> " + r[1])
                    .containsExactly("Ada Lovelace -programmed-> Analytical Engine");
        }
    }

    @Test
    void notJsonOrUnreachableGivesNothingSoTheRulesStand() throws Exception {
        try (OllamaApiStandIn ollama = new OllamaApiStandIn(0, prompt -> "sorry, I cannot do that")) {
            assertThat(new OllamaGraphExtractor(ollama.url(), "stand-in", 1, Duration.ofSeconds(5)).extract("text")).isNull();
        }
        int closed = dev.openrag.localstack.Ports.free();
        assertThat(new OllamaGraphExtractor("http://127.0.0.1:" + closed, "stand-in", 1, Duration.ofSeconds(2)).extract("text")).isNull();
    }
}
