package dev.openrag.knowledge.llm;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The LLM providers a role can use, with their defaults. {@code openai} is any server speaking
 * OpenAI's chat-completions API (OpenAI, vLLM, llama.cpp's server, LM Studio, LocalAI): set its
 * base URL. Hosted providers read their key from their usual environment variable.
 */
public enum LlmProvider {

    OLLAMA("ollama", null, null, null),
    OPENAI("openai", "https://api.openai.com/v1", "gpt-4o-mini", "OPENAI_API_KEY"),
    ANTHROPIC("anthropic", "https://api.anthropic.com/v1", "claude-3-5-haiku-latest", "ANTHROPIC_API_KEY"),
    GEMINI("gemini", "https://generativelanguage.googleapis.com/v1beta", "gemini-2.0-flash", "GEMINI_API_KEY");

    private final String id;
    private final String defaultBaseUrl;
    private final String defaultModel;
    private final String keyVariable;

    LlmProvider(String id, String defaultBaseUrl, String defaultModel, String keyVariable) {
        this.id = id;
        this.defaultBaseUrl = defaultBaseUrl;
        this.defaultModel = defaultModel;
        this.keyVariable = keyVariable;
    }

    public String id() {
        return id;
    }

    /** Null for Ollama, whose URL and model come from {@code openrag.ollama.*}. */
    public String defaultBaseUrl() {
        return defaultBaseUrl;
    }

    public String defaultModel() {
        return defaultModel;
    }

    /** The environment variable a hosted provider's key is read from when none is configured. */
    public Optional<String> keyVariable() {
        return Optional.ofNullable(keyVariable);
    }

    public static LlmProvider of(String id, String settingName) {
        String wanted = id == null ? "" : id.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(p -> p.id.equals(wanted)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(settingName + " must be one of "
                        + Arrays.stream(values()).map(LlmProvider::id).toList() + ", not '" + id + "'"));
    }
}
