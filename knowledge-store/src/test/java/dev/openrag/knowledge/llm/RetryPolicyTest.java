package dev.openrag.knowledge.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private final RetryPolicy policy = new RetryPolicy(3, Duration.ofMillis(500), Duration.ofSeconds(30));

    private static RuntimeException wrapped(Exception cause) {
        return new RuntimeException("LangChain4j wrapper", cause);
    }

    @Test
    void retryAfterIsWhatWeWait() {
        assertThat(policy.delayBefore(1, wrapped(new ProviderHttpException(429, "slow down", Duration.ofSeconds(7)))))
                .isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void withoutRetryAfterTheBackoffDoubles() {
        ProviderHttpException overloaded = new ProviderHttpException(503, "busy", null);
        assertThat(policy.delayBefore(1, overloaded)).isEqualTo(Duration.ofMillis(500));
        assertThat(policy.delayBefore(2, overloaded)).isEqualTo(Duration.ofMillis(1000));
        assertThat(policy.delayBefore(3, wrapped(new UncheckedIOException(new HttpTimeoutException("timed out")))))
                .isEqualTo(Duration.ofMillis(2000));
        assertThat(policy.delayBefore(1, wrapped(new UncheckedIOException(new ConnectException("refused")))))
                .isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void givesUpAfterMaxRetriesOnBadRequestsAndOnWaitsLongerThanTheMost() {
        assertThat(policy.delayBefore(4, new ProviderHttpException(429, "", Duration.ofSeconds(1)))).isNull();
        assertThat(policy.delayBefore(1, new ProviderHttpException(400, "bad request", null))).isNull();
        assertThat(policy.delayBefore(1, new ProviderHttpException(401, "bad key", null))).isNull();
        assertThat(policy.delayBefore(1, new ProviderHttpException(429, "", Duration.ofMinutes(5)))).isNull();
        assertThat(policy.delayBefore(1, new IllegalArgumentException("a bug, not an outage"))).isNull();
    }

    @Test
    void retryAfterIsSecondsOrAnHttpDate() {
        assertThat(ProviderHttpException.parseRetryAfter("2")).isEqualTo(Duration.ofSeconds(2));
        assertThat(ProviderHttpException.parseRetryAfter("0.5")).isEqualTo(Duration.ofMillis(500));
        String inTenSeconds = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now().plusSeconds(10));
        assertThat(ProviderHttpException.parseRetryAfter(inTenSeconds)).isBetween(Duration.ofSeconds(8), Duration.ofSeconds(10));
        assertThat(ProviderHttpException.parseRetryAfter("soon")).isNull();
    }
}
