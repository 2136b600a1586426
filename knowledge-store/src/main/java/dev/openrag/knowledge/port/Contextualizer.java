package dev.openrag.knowledge.port;

import java.util.List;

import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.TokenUsage;

/**
 * Contextual retrieval: a short text situating each chunk in its document, put in front of the
 * chunk before it is embedded and BM25-indexed.
 */
public interface Contextualizer {

    /** Name recorded on ChunksContextualized events ("structural", "llm:ollama:llama3.2", ...). */
    String name();

    /** One context per chunk, in the order of {@code chunks}. */
    Contexts contextualize(String title, String sourceUri, String documentText, List<Chunk> chunks);

    /**
     * The contexts, the LLM tokens they cost and the model ("provider:model") that spent them (none
     * offline), and what the document should be warned about (e.g. chunks that fell back to the
     * structural context).
     */
    record Contexts(List<String> texts, TokenUsage usage, String model, List<String> warnings) {

        public static Contexts offline(List<String> texts) {
            return new Contexts(texts, TokenUsage.NONE, null, List.of());
        }
    }
}
