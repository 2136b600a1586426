package dev.openrag.knowledge.runtime;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code openrag.ollama.*}: the one place the Ollama settings and their defaults are read. */
@ConfigMapping(prefix = "openrag.ollama")
public interface OllamaConfig {

    @WithDefault("http://127.0.0.1:11434")
    String url();

    /** Chat model for contexts and graph extraction. */
    @WithDefault("llama3.2")
    String model();

    @WithDefault("nomic-embed-text")
    String embeddingModel();

    /** Calls in flight at once, per use (contextualizer, graph extractor). */
    @WithDefault("2")
    int maxInFlight();

    @WithDefault("PT60S")
    Duration timeout();

    @WithDefault("2")
    int maxRetries();
}
