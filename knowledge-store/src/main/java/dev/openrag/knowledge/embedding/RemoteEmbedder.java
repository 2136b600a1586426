package dev.openrag.knowledge.embedding;

import java.util.List;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.openrag.knowledge.port.Embedder;

/**
 * Embeddings from a model served by a provider (Ollama, OpenAI or any server speaking its API,
 * Gemini), through LangChain4j ({@code openrag.embedding.provider}). The configured dimension
 * must match the model's, since the vector indexes are created with it; a mismatch fails loudly
 * instead of writing vectors no index can hold.
 */
public final class RemoteEmbedder implements Embedder {

    private final String name;
    private final EmbeddingModel model;
    private final int dimension;

    /** @param name "provider:model", recorded on ChunksEmbedded events */
    public RemoteEmbedder(String name, EmbeddingModel model, int dimension) {
        this.name = name;
        this.model = model;
        this.dimension = dimension;
    }

    @Override
    public String modelName() {
        return name;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        if (texts.isEmpty()) {
            return List.of();
        }
        List<float[]> vectors = model.embedAll(texts.stream().map(text -> TextSegment.from(Embedder.nonBlank(text))).toList())
                .content().stream().map(Embedding::vector).toList();
        for (float[] vector : vectors) {
            if (vector.length != dimension) {
                throw new IllegalStateException(name + " returns " + vector.length
                        + "-dimensional vectors but openrag.embedding.dimension is " + dimension);
            }
        }
        return vectors;
    }
}
