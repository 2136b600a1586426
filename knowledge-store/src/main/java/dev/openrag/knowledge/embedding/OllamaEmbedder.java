package dev.openrag.knowledge.embedding;

import java.time.Duration;
import java.util.List;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.ollama.OllamaEmbeddingModel;
import dev.openrag.knowledge.port.Embedder;

/**
 * Embeddings from a model served by Ollama ({@code openrag.embedding.provider=ollama}). The
 * configured dimension must match the model's, since the vector indexes are created with it; a
 * mismatch fails loudly instead of writing vectors no index can hold.
 */
public final class OllamaEmbedder implements Embedder {

    private final EmbeddingModel model;
    private final String modelName;
    private final int dimension;

    public OllamaEmbedder(String baseUrl, String modelName, int dimension, Duration timeout) {
        this.model = OllamaEmbeddingModel.builder().baseUrl(baseUrl).modelName(modelName).timeout(timeout).maxRetries(2).build();
        this.modelName = modelName;
        this.dimension = dimension;
    }

    @Override
    public String modelName() {
        return "ollama:" + modelName;
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
                throw new IllegalStateException("Ollama model " + modelName + " returns " + vector.length
                        + "-dimensional vectors but openrag.embedding.dimension is " + dimension);
            }
        }
        return vectors;
    }
}
