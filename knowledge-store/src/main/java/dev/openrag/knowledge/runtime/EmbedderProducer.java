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
 * {@code openrag.embedding.query-instruction=true} prefixes bge's query instruction to searches
 * (onnx only; see {@link OnnxEmbedder}).
 */
@ApplicationScoped
public class EmbedderProducer {

    @Produces
    @Singleton
    Embedder embedder(@ConfigProperty(name = "openrag.embedding.provider", defaultValue = "onnx") String provider,
                      @ConfigProperty(name = "openrag.embedding.dimension", defaultValue = "384") int dimension,
                      @ConfigProperty(name = "openrag.embedding.query-instruction", defaultValue = "false") boolean queryInstruction,
                      OllamaConfig ollama) {
        return switch (provider) {
            case "onnx" -> new OnnxEmbedder(Runtime.getRuntime().availableProcessors(), queryInstruction);
            case "ollama" -> new OllamaEmbedder(ollama.url(), ollama.embeddingModel(), dimension, ollama.timeout());
            default -> throw new IllegalArgumentException("openrag.embedding.provider must be onnx or ollama, not '" + provider + "'");
        };
    }
}
