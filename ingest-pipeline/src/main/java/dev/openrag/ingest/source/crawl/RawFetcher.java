package dev.openrag.ingest.source.crawl;

import java.io.IOException;
import java.net.URI;
import java.util.Map;

import dev.openrag.knowledge.fetch.AddressPolicy;
import dev.openrag.knowledge.fetch.SafeFetcher;

/**
 * Plain HTTP GETs for what needs no browser: robots.txt and files (PDF, DOCX, ...) handed to the
 * parse stage; through the {@link SafeFetcher}, so each URL and redirect must be one the server may fetch.
 */
final class RawFetcher {

    /** A fetched body; {@code tooLarge} when it exceeded the limit (the body is then cut). */
    record Fetched(int status, String contentType, byte[] body, boolean tooLarge) {
    }

    private final SafeFetcher fetcher;
    private final CrawlerSettings settings;

    RawFetcher(CrawlerSettings settings, SafeFetcher fetcher) {
        this.settings = settings;
        this.fetcher = fetcher;
    }

    /** @throws AddressPolicy.RefusedException when the URL or a redirect leads where the server must not go */
    Fetched get(String url) throws IOException, InterruptedException {
        SafeFetcher.Fetched fetched = fetcher.get(URI.create(url), settings.pageTimeout(), settings.maxPageBytes(),
                Map.of("User-Agent", settings.userAgent()));
        return new Fetched(fetched.status(), fetched.contentType(), fetched.body(), fetched.tooLarge());
    }
}
