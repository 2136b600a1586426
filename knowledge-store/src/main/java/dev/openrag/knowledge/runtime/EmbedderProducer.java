package dev.openrag.knowledge.runtime;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.openrag.knowledge.embedding.OnnxEmbedder;
import dev.openrag.knowledge.embedding.RemoteEmbedder;
import dev.openrag.knowledge.llm.LanguageModels;
import dev.openrag.knowledge.llm.LlmProvider;
import dev.openrag.knowledge.port.Embedder;

/**
 * The embedder of every app, by {@code openrag.embedding.provider}: onnx (in-process
 * bge-small-en-v1.5, offline, default), ollama ({@code openrag.ollama.embedding-model}), openai
 * (any server speaking its API; text-embedding-3-small unless {@code openrag.embedding.model})
 * or gemini (text-embedding-004); {@code openrag.embedding.base-url} and {@code .api-key} (else
 * OPENAI_API_KEY / GEMINI_API_KEY) reach hosted ones. Set {@code openrag.embedding.dimension} to
 * the vector size. Ingestion and search must agree.
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
                      @ConfigProperty(name = "openrag.embedding.model") Optional<String> model,
                      @ConfigProperty(name = "openrag.embedding.base-url") Optional<String> baseUrl,
                      @ConfigProperty(name = "openrag.embedding.api-key") Optional<String> apiKey,
                      OllamaConfig ollama) {
        if ("onnx".equals(provider)) {
            return new OnnxEmbedder(Runtime.getRuntime().availableProcessors(), queryInstruction);
        }
        LlmProvider remote = LlmProvider.of(provider, "openrag.embedding.provider (onnx or a provider)");
        boolean local = remote == LlmProvider.OLLAMA;
        String name = model.orElse(switch (remote) {
            case OLLAMA -> ollama.embeddingModel();
            case GEMINI -> "text-embedding-004";
            default -> "text-embedding-3-small";
        });
        String url = baseUrl.orElse(local ? ollama.url() : remote.defaultBaseUrl());
        String key = apiKey.or(() -> remote.keyVariable()
                .flatMap(variable -> ConfigProvider.getConfig().getOptionalValue(variable, String.class))).orElse(null);
        if (key == null && !local && url.equals(remote.defaultBaseUrl())) {
            throw new IllegalStateException("openrag.embedding.provider " + remote.id() + " needs an API key: set "
                    + remote.keyVariable().orElse("") + " or openrag.embedding.api-key");
        }
        return new RemoteEmbedder(remote.id() + ":" + name,
                LanguageModels.embeddings(remote, name, url, key == null ? "not-needed" : key, ollama.timeout(), dimension), dimension);
    }
}
