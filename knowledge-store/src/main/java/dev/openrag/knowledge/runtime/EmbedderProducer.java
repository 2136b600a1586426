package dev.openrag.knowledge.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.openrag.knowledge.embedding.OllamaEmbedder;
import dev.openrag.knowledge.embedding.OnnxEmbedder;
import dev.openrag.knowledge.port.Embedder;

/**
 * The embedder of every app, by {@code openrag.embedding.provider}: onnx (in-process
 * bge-small-en-v1.5, offline, default) or ollama ({@code openrag.ollama.embedding-model}; set
 * {@code openrag.embedding.dimension} to its vector size). Ingestion and search must agree.
 */
@ApplicationScoped
public class EmbedderProducer {

    @Produces
    @Singleton
    Embedder embedder(@ConfigProperty(name = "openrag.embedding.provider", defaultValue = "onnx") String provider,
                      @ConfigProperty(name = "openrag.embedding.dimension", defaultValue = "384") int dimension,
                      OllamaConfig ollama) {
        return switch (provider) {
            case "onnx" -> new OnnxEmbedder();
            case "ollama" -> new OllamaEmbedder(ollama.url(), ollama.embeddingModel(), dimension, ollama.timeout());
            default -> throw new IllegalArgumentException("openrag.embedding.provider must be onnx or ollama, not '" + provider + "'");
        };
    }
}
