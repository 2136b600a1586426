package dev.openrag.knowledge.runtime;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.eclipse.microprofile.config.ConfigProvider;

import dev.openrag.knowledge.llm.LlmProvider;
import dev.openrag.knowledge.llm.LlmRole;
import dev.openrag.knowledge.llm.LlmSettings;
import dev.openrag.knowledge.settings.CollectionSettings.ModelChoice;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * {@code openrag.llm.<role>.*}: the provider and model of each knowledge LLM role ({@link LlmRole}), and
 * {@code openrag.llm.prices.<model>.*} for cost. Another module's role maps its own {@link Role} under
 * {@code openrag.llm.<id>} (memory's: {@code openrag.llm.memory}) and resolves it the same way
 * ({@link #settings(String, Role, OllamaConfig, ModelChoice, Function)}). Unset values fall back to the provider's defaults
 * and, for Ollama, to {@code openrag.ollama.*}; a hosted provider's key falls back to its usual
 * environment variable ({@code OPENAI_API_KEY}, {@code ANTHROPIC_API_KEY}, {@code GEMINI_API_KEY}).
 */
@ConfigMapping(prefix = "openrag.llm")
public interface LlmConfig {

    Role contextualizer();

    Role graphExtractor();

    Role summarizer();

    Role answer();

    /** Prices in the currency of your bill per million tokens, by model name ("gpt-4o-mini"). */
    Map<String, Price> prices();

    /** One role's settings, {@code openrag.llm.<id>.*}; a module's own role maps it with a prefix of its own. */
    interface Role {

        @WithDefault("ollama")
        String provider();

        Optional<String> model();

        Optional<String> baseUrl();

        Optional<String> apiKey();

        Optional<Duration> timeout();

        Optional<Integer> maxInFlight();

        Optional<Integer> maxRetries();

        /** Unset: the provider's default (reasoning models accept no other); 0 for repeatable contexts. */
        Optional<Double> temperature();
    }

    interface Price {

        /** Per million input tokens. */
        double input();

        /** Per million output tokens. */
        double output();

        /** Per million cached input tokens; the input price when unset. */
        Optional<Double> cachedInput();
    }

    default Role role(LlmRole role) {
        return switch (role) {
            case CONTEXTUALIZER -> contextualizer();
            case GRAPH_EXTRACTOR -> graphExtractor();
            case SUMMARIZER -> summarizer();
            case ANSWER -> answer();
        };
    }

    /** The complete settings of a role; a hosted provider without a key is refused with the setting to fix. */
    default LlmSettings settings(LlmRole role, OllamaConfig ollama) {
        return settings(role, ollama, null, LlmConfig::environment);
    }

    /** The same with a collection's choice of provider and model for the role (null: the role's own). */
    default LlmSettings settings(LlmRole role, OllamaConfig ollama, ModelChoice choice) {
        return settings(role, ollama, choice, LlmConfig::environment);
    }

    /** The same, {@code environment} looking up a provider's key variable ({@code OPENAI_API_KEY}, ...). */
    default LlmSettings settings(LlmRole role, OllamaConfig ollama, ModelChoice choice, Function<String, Optional<String>> environment) {
        return settings(role.id(), role(role), ollama, choice, environment);
    }

    /** The complete settings of the role {@code id} configured as {@code configured} ({@code openrag.llm.<id>.*}). */
    static LlmSettings settings(String id, Role configured, OllamaConfig ollama, ModelChoice choice) {
        return settings(id, configured, ollama, choice, LlmConfig::environment);
    }

    /**
     * {@code environment} looks up a provider's key variable ({@code OPENAI_API_KEY}, ...). A choice
     * of another provider than the role's keeps the role's timeout, concurrency and retries, but not
     * its URL, key or model, which belong to the role's provider.
     */
    static LlmSettings settings(String id, Role configured, OllamaConfig ollama, ModelChoice choice,
                                Function<String, Optional<String>> environment) {
        String prefix = "openrag.llm." + id;
        LlmProvider provider = LlmProvider.of(choice == null ? configured.provider() : choice.provider(),
                choice == null ? prefix + ".provider" : "the collection's " + id + " provider");
        boolean sameProvider = provider == LlmProvider.of(configured.provider(), prefix + ".provider");
        boolean local = provider == LlmProvider.OLLAMA;
        String baseUrl = configured.baseUrl().filter(url -> sameProvider)
                .orElse(local ? ollama.url() : provider.defaultBaseUrl());
        String model = Optional.ofNullable(choice == null ? null : choice.model())
                .or(() -> configured.model().filter(m -> sameProvider))
                .orElse(local ? ollama.model() : provider.defaultModel());
        String key = configured.apiKey().filter(k -> sameProvider && !k.isBlank())
                .or(() -> provider.keyVariable().flatMap(environment))
                .orElse(null);
        if (key == null && !local) {
            boolean customServer = !baseUrl.equals(provider.defaultBaseUrl());
            if (provider != LlmProvider.OPENAI || !customServer) {
                throw new IllegalStateException(prefix + ": provider " + provider.id() + " needs an API key: set "
                        + provider.keyVariable().orElse("") + " or " + prefix + ".api-key");
            }
            key = "not-needed"; // an OpenAI-compatible local server (vLLM, llama.cpp, LM Studio) may take none
        }
        return new LlmSettings(provider, model, baseUrl, key, configured.timeout().orElse(ollama.timeout()),
                configured.maxInFlight().orElse(ollama.maxInFlight()), configured.maxRetries().orElse(ollama.maxRetries()),
                configured.temperature().orElse(null));
    }

    private static Optional<String> environment(String name) {
        return ConfigProvider.getConfig().getOptionalValue(name, String.class);
    }
}
