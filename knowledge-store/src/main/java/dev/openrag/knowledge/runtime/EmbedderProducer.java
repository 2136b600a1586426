package dev.openrag.knowledge.runtime;

import java.time.Duration;

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
                      @ConfigProperty(name = "openrag.ollama.url", defaultValue = "http://127.0.0.1:11434") String url,
                      @ConfigProperty(name = "openrag.ollama.embedding-model", defaultValue = "nomic-embed-text") String model,
                      @ConfigProperty(name = "openrag.ollama.timeout", defaultValue = "PT60S") Duration timeout) {
        return switch (provider) {
            case "onnx" -> new OnnxEmbedder();
            case "ollama" -> new OllamaEmbedder(url, model, dimension, timeout);
            default -> throw new IllegalArgumentException("openrag.embedding.provider must be onnx or ollama, not '" + provider + "'");
        };
    }
}
