package dev.openrag.ingest.source.crawl;

/** The crawler cannot run on this machine (no Chromium); the message says how to fix it. */
public class CrawlerUnavailableException extends RuntimeException {

    public CrawlerUnavailableException(String message) {
        super(message);
    }
}
