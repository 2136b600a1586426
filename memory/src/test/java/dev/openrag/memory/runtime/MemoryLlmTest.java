package dev.openrag.memory.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.eclipse.microprofile.config.spi.ConfigSource;
import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.llm.LlmProvider;
import dev.openrag.knowledge.llm.LlmSettings;
import dev.openrag.knowledge.runtime.LlmConfig;
import dev.openrag.knowledge.runtime.OllamaConfig;
import dev.openrag.knowledge.runtime.RoleModels;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * Memory's LLM role, {@code openrag.llm.memory.*}, mapped by the memory module beside knowledge-store's roles under
 * {@code openrag.llm} as an app holds both: the same names, defaults and refusals as before it moved.
 */
class MemoryLlmTest {

    private static SmallRyeConfig config(ConfigSource source) {
        return new SmallRyeConfigBuilder().withMapping(LlmConfig.class).withMapping(OllamaConfig.class)
                .withMapping(MemoryLlm.Settings.class).withSources(source).build();
    }

    private static SmallRyeConfig config(Map<String, String> properties) {
        return config(new PropertiesConfigSource(properties, "test", 100));
    }

    private static LlmSettings settings(SmallRyeConfig config, Map<String, String> environment) {
        return LlmConfig.settings(MemoryLlm.ROLE, config.getConfigMapping(MemoryLlm.Settings.class),
                config.getConfigMapping(OllamaConfig.class), null, name -> Optional.ofNullable(environment.get(name)));
    }

    @Test
    void unsetTheRoleIsOllamaWithTheOllamaSettings() {
        LlmSettings settings = settings(config(Map.of("openrag.ollama.model", "qwen2.5", "openrag.ollama.max-in-flight", "3")),
                Map.of());

        assertThat(settings.name()).isEqualTo("ollama:qwen2.5");
        assertThat(settings.baseUrl()).isEqualTo("http://127.0.0.1:11434");
        assertThat(settings.maxInFlight()).isEqualTo(3);
        assertThat(settings.timeout()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void theRoleHasItsOwnProviderModelAndLimitsAndLeavesTheKnowledgeRolesAlone() {
        SmallRyeConfig config = config(Map.of("openrag.llm.memory.provider", "openai",
                "openrag.llm.memory.base-url", "http://127.0.0.1:9/v1", "openrag.llm.memory.api-key", "memory-key",
                "openrag.llm.memory.model", "stand-in", "openrag.llm.memory.timeout", "PT7S",
                "openrag.llm.memory.max-retries", "0", "openrag.llm.memory.temperature", "0",
                "openrag.llm.answer.model", "llama3.1"));

        LlmSettings memory = settings(config, Map.of());
        assertThat(memory.name()).isEqualTo("openai:stand-in");
        assertThat(memory.baseUrl()).isEqualTo("http://127.0.0.1:9/v1");
        assertThat(memory.apiKey()).isEqualTo("memory-key");
        assertThat(memory.timeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(memory.maxRetries()).isZero();
        assertThat(memory.maxInFlight()).as("openrag.ollama.max-in-flight's default").isEqualTo(2);
        assertThat(memory.temperature()).isZero();

        LlmConfig knowledge = config.getConfigMapping(LlmConfig.class);
        OllamaConfig ollama = config.getConfigMapping(OllamaConfig.class);
        assertThat(knowledge.settings(dev.openrag.knowledge.llm.LlmRole.ANSWER, ollama).name()).isEqualTo("ollama:llama3.1");

        // the app's bean: built through knowledge-store's role models, once
        MemoryLlm llm = new MemoryLlm(new RoleModels(knowledge, ollama), config.getConfigMapping(MemoryLlm.Settings.class));
        assertThat(llm.chat().name()).isEqualTo("openai:stand-in");
        assertThat(llm.chat()).isSameAs(llm.chat());
    }

    @Test
    void theRoleIsReadFromItsEnvironmentVariables() {
        LlmSettings settings = settings(config(new EnvConfigSource(Map.of("OPENRAG_LLM_MEMORY_PROVIDER", "gemini",
                "OPENRAG_LLM_MEMORY_MODEL", "gemini-2.5-flash", "OPENRAG_LLM_MEMORY_API_KEY", "g-key",
                "OPENRAG_LLM_MEMORY_MAX_IN_FLIGHT", "5"), 300)), Map.of());

        assertThat(settings.provider()).isEqualTo(LlmProvider.GEMINI);
        assertThat(settings.name()).isEqualTo("gemini:gemini-2.5-flash");
        assertThat(settings.apiKey()).isEqualTo("g-key");
        assertThat(settings.maxInFlight()).isEqualTo(5);
    }

    @Test
    void aHostedProviderWithoutItsKeyIsRefusedNamingTheMemorySettings() {
        SmallRyeConfig config = config(Map.of("openrag.llm.memory.provider", "anthropic"));

        assertThatThrownBy(() -> settings(config, Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("openrag.llm.memory: provider anthropic needs an API key: set ANTHROPIC_API_KEY or openrag.llm.memory.api-key");
        // control: the provider's usual variable is enough
        assertThat(settings(config, Map.of("ANTHROPIC_API_KEY", "sk-ant")).apiKey()).isEqualTo("sk-ant");
        assertThatThrownBy(() -> settings(config(Map.of("openrag.llm.memory.provider", "watson")), Map.of()))
                .hasMessageContaining("openrag.llm.memory.provider");
        assertThatThrownBy(() -> settings(config(Map.of("openrag.llm.memory.max-in-flight", "0")), Map.of()))
                .hasMessageContaining("max-in-flight");
    }
}
