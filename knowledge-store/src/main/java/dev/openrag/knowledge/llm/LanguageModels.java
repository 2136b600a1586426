package dev.openrag.knowledge.llm;

import java.time.Duration;

import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.anthropic.AnthropicStreamingChatModel;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.googleai.GoogleAiEmbeddingModel;
import dev.langchain4j.model.googleai.GoogleAiGeminiChatModel;
import dev.langchain4j.model.googleai.GoogleAiGeminiStreamingChatModel;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.ollama.OllamaEmbeddingModel;
import dev.langchain4j.model.ollama.OllamaStreamingChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiEmbeddingModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;

/**
 * Builds the {@link LlmChat} for one role's settings with LangChain4j's provider module, all on
 * {@link ProviderHttpClient}. LangChain4j's own retries are off: {@link RetryPolicy} does them,
 * honouring {@code Retry-After}. Anthropic caches system messages (the contextualizer's document),
 * OpenAI caches long shared prefixes by itself; both report the cached tokens.
 */
public final class LanguageModels {

    private LanguageModels() {
    }

    /**
     * An embedding model of {@code provider} (Anthropic has none). OpenAI's and Gemini's are asked
     * for vectors of {@code dimension}, which their newer models can shorten to.
     */
    public static EmbeddingModel embeddings(LlmProvider provider, String model, String baseUrl, String apiKey, Duration timeout,
                                            int dimension) {
        return switch (provider) {
            case OLLAMA -> OllamaEmbeddingModel.builder().httpClientBuilder(new ProviderHttpClient.Builder()).baseUrl(baseUrl)
                    .modelName(model).timeout(timeout).maxRetries(2).build();
            case OPENAI -> OpenAiEmbeddingModel.builder().httpClientBuilder(new ProviderHttpClient.Builder()).baseUrl(baseUrl)
                    .apiKey(apiKey).modelName(model).dimensions(dimension).timeout(timeout).maxRetries(2).build();
            case GEMINI -> GoogleAiEmbeddingModel.builder().httpClientBuilder(new ProviderHttpClient.Builder()).baseUrl(baseUrl)
                    .apiKey(apiKey).modelName(model).outputDimensionality(dimension).timeout(timeout).maxRetries(2).build();
            case ANTHROPIC -> throw new IllegalArgumentException("anthropic has no embedding models: "
                    + "set openrag.embedding.provider to onnx, ollama, openai or gemini");
        };
    }

    public static LlmChat chat(LlmSettings s) {
        RetryPolicy retries = RetryPolicy.of(s.maxRetries());
        return switch (s.provider()) {
            case OLLAMA -> new LlmChat(s.name(),
                    OllamaChatModel.builder().httpClientBuilder(new ProviderHttpClient.Builder()).baseUrl(s.baseUrl())
                            .modelName(s.model()).timeout(s.timeout()).maxRetries(0).build(),
                    OllamaStreamingChatModel.builder().httpClientBuilder(new ProviderHttpClient.Builder()).baseUrl(s.baseUrl())
                            .modelName(s.model()).timeout(s.timeout()).build(),
                    true, s.temperature(), s.maxInFlight(), retries);
            case OPENAI -> new LlmChat(s.name(),
                    OpenAiChatModel.builder().httpClientBuilder(new ProviderHttpClient.Builder()).baseUrl(s.baseUrl())
                            .apiKey(s.apiKey()).modelName(s.model()).timeout(s.timeout()).maxRetries(0).build(),
                    OpenAiStreamingChatModel.builder().httpClientBuilder(new ProviderHttpClient.Builder()).baseUrl(s.baseUrl())
                            .apiKey(s.apiKey()).modelName(s.model()).timeout(s.timeout()).build(),
                    true, s.temperature(), s.maxInFlight(), retries);
            // Anthropic has no plain JSON mode: the prompt asks for JSON, and callers validate and repair
            case ANTHROPIC -> new LlmChat(s.name(),
                    AnthropicChatModel.builder().httpClientBuilder(new ProviderHttpClient.Builder()).baseUrl(s.baseUrl())
                            .apiKey(s.apiKey()).modelName(s.model()).timeout(s.timeout()).maxRetries(0)
                            .cacheSystemMessages(true).build(),
                    AnthropicStreamingChatModel.builder().httpClientBuilder(new ProviderHttpClient.Builder()).baseUrl(s.baseUrl())
                            .apiKey(s.apiKey()).modelName(s.model()).timeout(s.timeout()).cacheSystemMessages(true).build(),
                    false, s.temperature(), s.maxInFlight(), retries);
            case GEMINI -> new LlmChat(s.name(),
                    GoogleAiGeminiChatModel.builder().httpClientBuilder(new ProviderHttpClient.Builder()).baseUrl(s.baseUrl())
                            .apiKey(s.apiKey()).modelName(s.model()).timeout(s.timeout()).maxRetries(0).build(),
                    GoogleAiGeminiStreamingChatModel.builder().httpClientBuilder(new ProviderHttpClient.Builder()).baseUrl(s.baseUrl())
                            .apiKey(s.apiKey()).modelName(s.model()).timeout(s.timeout()).build(),
                    true, s.temperature(), s.maxInFlight(), retries);
        };
    }
}
