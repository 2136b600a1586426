package dev.openrag.knowledge.port;

import java.util.List;

import dev.openrag.schemas.Chunk;

/**
 * Contextual retrieval: a short text situating each chunk in its document, put in front of the
 * chunk before it is embedded and BM25-indexed.
 */
public interface Contextualizer {

    /** Name recorded on ChunksContextualized events ("structural", "ollama:llama3.2", ...). */
    String name();

    /** One context per chunk, in the order of {@code chunks}. */
    List<String> contextualize(String title, String sourceUri, String documentText, List<Chunk> chunks);
}
