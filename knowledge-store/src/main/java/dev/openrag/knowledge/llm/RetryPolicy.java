package dev.openrag.knowledge.llm;

import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * When to call a provider again: after a rate limit, an overload, a 5xx, a timeout or a refused
 * connection, up to {@code maxRetries} times. The wait is what the provider's {@code Retry-After}
 * asked for, else exponential backoff from {@code firstDelay}; a {@code Retry-After} longer than
 * {@code maxDelay} gives up at once, so a stage falls back instead of stalling for minutes.
 * (LangChain4j's own retries cannot see {@code Retry-After}: its exception drops the headers.)
 */
public record RetryPolicy(int maxRetries, Duration firstDelay, Duration maxDelay) {

    public static RetryPolicy of(int maxRetries) {
        return new RetryPolicy(maxRetries, Duration.ofMillis(500), Duration.ofSeconds(30));
    }

    /** The wait before retry number {@code retry} (1 = the first retry) after {@code failure}; null: give up. */
    public Duration delayBefore(int retry, Throwable failure) {
        if (retry > maxRetries) {
            return null;
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ProviderHttpException http) {
                if (!http.retryable()) {
                    return null;
                }
                if (http.retryAfter() != null) {
                    return http.retryAfter().compareTo(maxDelay) > 0 ? null : http.retryAfter();
                }
                return backoff(retry);
            }
            if (cause instanceof HttpTimeoutException || cause instanceof ConnectException) {
                return backoff(retry);
            }
        }
        return null;
    }

    private Duration backoff(int retry) {
        Duration delay = firstDelay.multipliedBy(1L << Math.min(retry - 1, 20));
        return delay.compareTo(maxDelay) > 0 ? maxDelay : delay;
    }
}
