package dev.openrag.ingest.source.crawl;

import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/crawls} body. {@code include}/{@code exclude} are regular expressions matched
 * against whole URLs; {@code schedule} is an interval ("30m", "1h") or a cron expression for
 * recrawls. Login field values may be {@code ${ENV_VAR}} references, resolved when the crawl logs in.
 */
public record CrawlRequest(List<String> seedUrls, String collection, Integer maxDepth, Integer maxPages,
                           List<String> include, List<String> exclude, Boolean sameHostOnly, Login login, String schedule) {

    /** Logs in before crawling: fill {@code fields} (CSS selector → value), click {@code submit}, wait for {@code successSelector}. */
    public record Login(String url, Map<String, String> fields, String submit, String successSelector) {

        /** The same login with literal values hidden (env var references stay): what status answers show. */
        public Login redacted() {
            return new Login(url, fields == null ? null : fields.entrySet().stream().collect(java.util.stream.Collectors.toMap(
                    Map.Entry::getKey, e -> Secrets.isReference(e.getValue()) ? e.getValue() : "***")), submit, successSelector);
        }
    }

    public CrawlRequest redacted() {
        return new CrawlRequest(seedUrls, collection, maxDepth, maxPages, include, exclude, sameHostOnly,
                login == null ? null : login.redacted(), schedule);
    }
}
