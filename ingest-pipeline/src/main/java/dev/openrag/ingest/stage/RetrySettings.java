package dev.openrag.ingest.stage;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How stages wait for engines and retry unexpected failures ({@code openrag.ingest.retry.*}). */
@ConfigMapping(prefix = "openrag.ingest.retry")
public interface RetrySettings {

    /** First pause after a failure; each next one doubles (with jitter) up to {@link #maxBackoff()}. */
    @WithDefault("1s")
    Duration initialBackoff();

    @WithDefault("15s")
    Duration maxBackoff();

    /**
     * How long a stage waits for an unavailable engine before it dead-letters the document.
     * Unset (the default): it waits as long as it takes, so an outage never loses a document.
     */
    Optional<Duration> giveUpAfter();

    /**
     * Outage-like failures of one document in a row, each while its engine's probe answers up,
     * after which the document is dead-lettered as one the engine refuses (an OpenSearch 429 for one
     * oversized request): the engine serves others, so waiting would block the partition for ever.
     * A failure while the probe is down (a real outage) starts the count again. 0: never.
     */
    @WithDefault("6")
    int refusedWhileUpAttempts();

    /** Attempts at a document whose failure is not an outage (a bug, a store refusing it) before it is dead-lettered. */
    @WithDefault("3")
    int contentAttempts();
}
