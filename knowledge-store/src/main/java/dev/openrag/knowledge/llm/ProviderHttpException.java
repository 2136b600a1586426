package dev.openrag.knowledge.llm;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

import dev.langchain4j.exception.HttpException;

/**
 * A provider answered with an error status. Unlike LangChain4j's {@link HttpException} it keeps
 * the {@code Retry-After} the provider sent with a 429 or 503, so a retry waits as long as asked.
 */
public final class ProviderHttpException extends HttpException {

    private static final int MAX_BODY_CHARS = 500;

    private final Duration retryAfter;

    ProviderHttpException(int statusCode, String body, Duration retryAfter) {
        super(statusCode, "LLM provider answered HTTP " + statusCode + ": " + shorten(body));
        this.retryAfter = retryAfter;
    }

    static ProviderHttpException of(int statusCode, String body, HttpHeaders headers) {
        return new ProviderHttpException(statusCode, body, headers.firstValue("Retry-After").map(ProviderHttpException::parseRetryAfter)
                .orElse(null));
    }

    /** What the provider asked to wait before trying again; null when it did not say. */
    public Duration retryAfter() {
        return retryAfter;
    }

    /** Rate limits, overload and server errors pass; a 4xx about the request itself does not. */
    public boolean retryable() {
        return statusCode() == 429 || statusCode() == 408 || statusCode() == 529 || statusCode() >= 500;
    }

    /** {@code Retry-After} is either seconds or an HTTP date (RFC 9110 §10.2.3). */
    static Duration parseRetryAfter(String value) {
        String v = value.strip();
        try {
            return Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000));
        } catch (NumberFormatException notSeconds) {
            try {
                Duration until = Duration.between(ZonedDateTime.now(java.time.ZoneOffset.UTC), ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME));
                return until.isNegative() ? Duration.ZERO : until;
            } catch (DateTimeParseException notDate) {
                return null;
            }
        }
    }

    private static String shorten(String body) {
        if (body == null) {
            return "";
        }
        String flat = body.replaceAll("\\s+", " ").strip();
        return flat.length() > MAX_BODY_CHARS ? flat.substring(0, MAX_BODY_CHARS) + "…" : flat;
    }
}
