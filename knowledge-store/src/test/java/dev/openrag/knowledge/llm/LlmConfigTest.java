package dev.openrag.knowledge.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.runtime.LlmConfig;
import dev.openrag.knowledge.runtime.OllamaConfig;
import dev.openrag.knowledge.settings.CollectionSettings;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/** How {@code openrag.llm.<role>.*} resolves: per-role providers, defaults, keys from the environment, refusals. */
class LlmConfigTest {

    private static SmallRyeConfig config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder().withMapping(LlmConfig.class).withMapping(OllamaConfig.class)
                .withSources(new PropertiesConfigSource(properties, "test", 100)).build();
    }

    private static LlmSettings settings(Map<String, String> properties, LlmRole role, Map<String, String> environment) {
        SmallRyeConfig config = config(properties);
        return config.getConfigMapping(LlmConfig.class).settings(role, config.getConfigMapping(OllamaConfig.class), null,
                name -> Optional.ofNullable(environment.get(name)));
    }

    @Test
    void everyRoleDefaultsToOllamaWithTheOllamaSettings() {
        LlmSettings settings = settings(Map.of("openrag.ollama.model", "qwen2.5", "openrag.ollama.max-in-flight", "3"),
                LlmRole.CONTEXTUALIZER, Map.of());

        assertThat(settings.provider()).isEqualTo(LlmProvider.OLLAMA);
        assertThat(settings.name()).isEqualTo("ollama:qwen2.5");
        assertThat(settings.baseUrl()).isEqualTo("http://127.0.0.1:11434");
        assertThat(settings.maxInFlight()).isEqualTo(3);
    }

    @Test
    void eachRoleHasItsOwnProviderModelTimeoutAndConcurrency() {
        Map<String, String> properties = Map.of(
                "openrag.llm.graph-extractor.provider", "anthropic",
                "openrag.llm.graph-extractor.timeout", "PT20S",
                "openrag.llm.graph-extractor.max-in-flight", "8",
                "openrag.llm.answer.provider", "gemini",
                "openrag.llm.answer.model", "gemini-2.5-pro");
        Map<String, String> environment = Map.of("ANTHROPIC_API_KEY", "sk-ant-secret", "GEMINI_API_KEY", "g-secret");

        LlmSettings graph = settings(properties, LlmRole.GRAPH_EXTRACTOR, environment);
        LlmSettings answer = settings(properties, LlmRole.ANSWER, environment);

        assertThat(graph.name()).isEqualTo("anthropic:claude-3-5-haiku-latest");
        assertThat(graph.baseUrl()).isEqualTo("https://api.anthropic.com/v1");
        assertThat(graph.apiKey()).isEqualTo("sk-ant-secret");
        assertThat(graph.timeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(graph.maxInFlight()).isEqualTo(8);
        assertThat(answer.name()).isEqualTo("gemini:gemini-2.5-pro");
        assertThat(answer.apiKey()).isEqualTo("g-secret");
        assertThat(graph.toString()).doesNotContain("sk-ant-secret").contains("key set");
    }

    @Test
    void aHostedProviderWithoutAKeyIsRefusedNamingTheSettingToFix() {
        assertThatThrownBy(() -> settings(Map.of("openrag.llm.summarizer.provider", "openai"), LlmRole.SUMMARIZER, Map.of()))
                .hasMessage("openrag.llm.summarizer: provider openai needs an API key: set OPENAI_API_KEY or openrag.llm.summarizer.api-key");
    }

    @Test
    void anOpenAiCompatibleLocalServerNeedsNoKey() {
        LlmSettings settings = settings(Map.of("openrag.llm.contextualizer.provider", "openai",
                "openrag.llm.contextualizer.base-url", "http://127.0.0.1:8000/v1",
                "openrag.llm.contextualizer.model", "Qwen2.5-7B-Instruct"), LlmRole.CONTEXTUALIZER, Map.of());

        assertThat(settings.name()).isEqualTo("openai:Qwen2.5-7B-Instruct");
        assertThat(settings.baseUrl()).isEqualTo("http://127.0.0.1:8000/v1");
    }

    @Test
    void aCollectionsChoiceOfAnotherProviderKeepsTheRolesBoundsButNotItsUrlOrModel() {
        SmallRyeConfig config = config(Map.of("openrag.llm.contextualizer.base-url", "http://gpu-box:11434",
                "openrag.llm.contextualizer.model", "llama3.1:70b", "openrag.llm.contextualizer.max-in-flight", "6"));
        LlmConfig llm = config.getConfigMapping(LlmConfig.class);
        OllamaConfig ollama = config.getConfigMapping(OllamaConfig.class);

        LlmSettings chosen = llm.settings(LlmRole.CONTEXTUALIZER, ollama,
                new CollectionSettings.ModelChoice("anthropic", "claude-sonnet-4-5"), name -> Optional.of("sk-ant-from-env"));
        LlmSettings sameProvider = llm.settings(LlmRole.CONTEXTUALIZER, ollama,
                new CollectionSettings.ModelChoice("ollama", null), name -> Optional.empty());

        assertThat(chosen.name()).isEqualTo("anthropic:claude-sonnet-4-5");
        assertThat(chosen.baseUrl()).isEqualTo("https://api.anthropic.com/v1");
        assertThat(chosen.apiKey()).isEqualTo("sk-ant-from-env");
        assertThat(chosen.maxInFlight()).isEqualTo(6);
        assertThat(sameProvider.name()).isEqualTo("ollama:llama3.1:70b");
        assertThat(sameProvider.baseUrl()).isEqualTo("http://gpu-box:11434");
    }

    @Test
    void anUnknownProviderOrABadBoundIsRefused() {
        assertThatThrownBy(() -> settings(Map.of("openrag.llm.answer.provider", "watson"), LlmRole.ANSWER, Map.of()))
                .hasMessage("openrag.llm.answer.provider must be one of [ollama, openai, anthropic, gemini], not 'watson'");
        assertThatThrownBy(() -> settings(Map.of("openrag.llm.answer.max-in-flight", "0"), LlmRole.ANSWER, Map.of()))
                .hasMessageContaining("max-in-flight must be at least 1");
    }
}
