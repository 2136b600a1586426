package dev.openrag.knowledge.llm;

import java.time.Duration;

/**
 * How one role talks to its model: provider, model, base URL, key (never printed: see
 * {@link #toString()}), per-call timeout, calls in flight at once, retries of a call that hit a
 * rate limit, a 5xx or a timeout, and the sampling temperature (null: the provider's default;
 * reasoning models refuse any other).
 */
public record LlmSettings(LlmProvider provider, String model, String baseUrl, String apiKey, Duration timeout,
                          int maxInFlight, int maxRetries, Double temperature) {

    public LlmSettings(LlmProvider provider, String model, String baseUrl, String apiKey, Duration timeout, int maxInFlight,
                       int maxRetries) {
        this(provider, model, baseUrl, apiKey, timeout, maxInFlight, maxRetries, null);
    }

    public LlmSettings {
        if (model == null || model.isBlank()) {
            throw new IllegalArgumentException("an LLM model name is required for provider " + provider.id());
        }
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("max-in-flight must be at least 1, got " + maxInFlight);
        }
        if (maxRetries < 0) {
            throw new IllegalArgumentException("max-retries must not be negative, got " + maxRetries);
        }
        if (temperature != null && (temperature < 0 || temperature > 2)) {
            throw new IllegalArgumentException("temperature must be between 0 and 2, got " + temperature);
        }
    }

    public String name() {
        return provider.id() + ":" + model;
    }

    /** Keys stay out of logs and error messages. */
    @Override
    public String toString() {
        return "LlmSettings[" + name() + " at " + baseUrl + ", key " + (apiKey == null || apiKey.isBlank() ? "none" : "set")
                + ", timeout " + timeout + ", maxInFlight " + maxInFlight + ", maxRetries " + maxRetries + "]";
    }
}
