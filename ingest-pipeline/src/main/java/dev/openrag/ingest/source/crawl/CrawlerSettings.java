package dev.openrag.ingest.source.crawl;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code openrag.crawler.*} (env: OPENRAG_CRAWLER_...). */
@ConfigMapping(prefix = "openrag.crawler")
public interface CrawlerSettings {

    /** Debian's Chromium; the scripts install the {@code chromium} package, nothing is downloaded. */
    @WithDefault("/usr/bin/chromium")
    String chromium();

    /** Requests per second to one host (robots.txt crawl-delay can only slow it down). */
    @WithDefault("1.0")
    double requestsPerSecond();

    @WithDefault("PT20S")
    Duration pageTimeout();

    /** How long to wait for the network to settle after load (JS-rendered content), at most. */
    @WithDefault("PT3S")
    Duration renderWait();

    @WithDefault("5242880")
    long maxPageBytes();

    @WithDefault("2")
    int defaultMaxDepth();

    @WithDefault("100")
    int defaultMaxPages();

    /** The User-Agent, also the name robots.txt rules are matched against. */
    @WithDefault("OpenRAG-crawler")
    String userAgent();

    /** How long a crawl stays with its instance without a renewal: an instance that died loses its crawls after this. */
    @WithDefault("PT30S")
    Duration lease();

    /** How often an instance renews its leases and claims orphaned crawls ({@code off} in tests that share Neo4j). */
    @WithDefault("10s")
    String leaseRenewal();

    /** How long after start the first renewal and claim run (the scheduler reads it; tests that restart an app shorten it). */
    @WithDefault("5s")
    String firstClaim();
}
