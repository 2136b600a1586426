package dev.openrag.schemas;

/**
 * LLM tokens spent: {@code calls} requests, {@code inputTokens} sent (of which
 * {@code cachedInputTokens} were read from the provider's prompt cache) and {@code outputTokens}
 * written, as the provider reported them. Carried on StageCompleted events so a job can sum them.
 */
public record TokenUsage(long calls, long inputTokens, long outputTokens, long cachedInputTokens) {

    public static final TokenUsage NONE = new TokenUsage(0, 0, 0, 0);

    public TokenUsage plus(TokenUsage other) {
        if (other == null) {
            return this;
        }
        return new TokenUsage(calls + other.calls, inputTokens + other.inputTokens, outputTokens + other.outputTokens,
                cachedInputTokens + other.cachedInputTokens);
    }

    public boolean isEmpty() {
        return calls == 0 && inputTokens == 0 && outputTokens == 0;
    }

    public long totalTokens() {
        return inputTokens + outputTokens;
    }
}
