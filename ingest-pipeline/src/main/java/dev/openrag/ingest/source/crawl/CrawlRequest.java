package dev.openrag.ingest.source.crawl;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * {@code POST /api/crawls} body. {@code include}/{@code exclude} are regular expressions matched
 * against whole URLs; {@code schedule} is an interval ("30m", "1h") or a cron expression for
 * recrawls. Login field values are literals or named credentials ({@link LoginValue}). {@code metadata}: the caller's
 * metadata for every page of the crawl (key → string, number, date or list of strings; source field names refused),
 * beside the source fields each page gets ({@code url}, {@code host}, {@code title}).
 */
public record CrawlRequest(List<String> seedUrls, String collection, Integer maxDepth, Integer maxPages,
                           List<String> include, List<String> exclude, Boolean sameHostOnly, Login login, String schedule,
                           Map<String, Object> metadata) {

    public CrawlRequest(List<String> seedUrls, String collection, Integer maxDepth, Integer maxPages,
                        List<String> include, List<String> exclude, Boolean sameHostOnly, Login login, String schedule) {
        this(seedUrls, collection, maxDepth, maxPages, include, exclude, sameHostOnly, login, schedule, null);
    }

    public Map<String, Object> metadataOrNone() {
        return metadata == null ? Map.of() : metadata;
    }

    /** Logs in before crawling: fill {@code fields} (CSS selector → value), click {@code submit}, wait for {@code successSelector}. */
    public record Login(String url, Map<String, LoginValue> fields, String submit, String successSelector) {

        /** The same login with literal values hidden (credential references stay): what status answers show. */
        public Login redacted() {
            return withFields(LoginValue::redacted);
        }

        /** The literal values by selector (what a stored crawl keeps sealed). */
        public Map<String, String> literals() {
            Map<String, String> literals = new LinkedHashMap<>();
            if (fields != null) {
                fields.forEach((selector, value) -> {
                    if (value != null && !value.isCredential()) {
                        literals.put(selector, value.literal());
                    }
                });
            }
            return literals;
        }

        /** The same login with the literal values {@code literals} names put back (a stored crawl resumed). */
        public Login withLiterals(Map<String, String> literals) {
            return new Login(url, fields == null ? null : fields.entrySet().stream().collect(LinkedHashMap::new,
                    (map, e) -> map.put(e.getKey(), e.getValue() != null && !e.getValue().isCredential() && literals.containsKey(e.getKey())
                            ? LoginValue.of(literals.get(e.getKey())) : e.getValue()), Map::putAll), submit, successSelector);
        }

        private Login withFields(UnaryOperator<LoginValue> each) {
            return new Login(url, fields == null ? null : fields.entrySet().stream().collect(LinkedHashMap::new,
                    (map, e) -> map.put(e.getKey(), e.getValue() == null ? null : each.apply(e.getValue())), Map::putAll),
                    submit, successSelector);
        }
    }

    public CrawlRequest redacted() {
        return withLogin(login == null ? null : login.redacted());
    }

    public CrawlRequest withLogin(Login other) {
        return new CrawlRequest(seedUrls, collection, maxDepth, maxPages, include, exclude, sameHostOnly, other, schedule, metadata);
    }
}
