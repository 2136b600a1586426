package dev.openrag.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code openrag crawl URL...}: starts a crawl and shows its progress until it ends; then its failures. */
@Command(name = "crawl", description = "Crawl a site into a collection (Chromium, robots.txt, rate limit); progress until it ends.")
class CrawlCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Parameters(arity = "1..*", paramLabel = "URL", description = "seed URLs")
    List<String> seeds;

    @Option(names = {"-c", "--collection"}, description = "collection (default: default)")
    String collection;

    @Option(names = "--max-depth", description = "links to follow from a seed (default 2)")
    Integer maxDepth;

    @Option(names = "--max-pages", description = "pages to fetch at most (default 100)")
    Integer maxPages;

    @Option(names = "--include", description = "regex a URL must match (repeatable)")
    List<String> include;

    @Option(names = "--exclude", description = "regex that excludes a URL (repeatable)")
    List<String> exclude;

    @Option(names = "--all-hosts", description = "follow links to other hosts too")
    boolean allHosts;

    @Option(names = "--schedule", description = "recrawl interval (30m, 1h) or cron expression; the command returns after the first run")
    String schedule;

    @Option(names = "--meta", paramLabel = "KEY=VALUE", description = "metadata for every page (repeatable): a number written as one "
            + "(2026, 2.5; not 02139 or 1.10) stays a number, an ISO-8601 date a date, a key given twice a list of strings; each page also gets url, host, title and crawlId")
    List<String> meta;

    @Option(names = "--url", defaultValue = "${env:OPENRAG_INGEST_URL:-http://127.0.0.1:8081}", description = "ingest-pipeline URL")
    String url;

    @Override
    public Integer call() throws Exception {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("seedUrls", seeds);
        request.put("sameHostOnly", !allHosts);
        putIfSet(request, "collection", collection);
        putIfSet(request, "maxDepth", maxDepth);
        putIfSet(request, "maxPages", maxPages);
        putIfSet(request, "include", include);
        putIfSet(request, "exclude", exclude);
        putIfSet(request, "schedule", schedule);
        putIfSet(request, "metadata", MetaOptions.map(meta));
        ApiClient ingest = new ApiClient(url);
        JsonNode started = ingest.postJson("/api/crawls", JSON.writeValueAsString(request));
        String crawlId = started.path("crawlId").asText();
        System.out.println("crawl " + crawlId + " (job " + started.path("jobId").asText() + ")");
        JsonNode status;
        String shown = "";
        do {
            Thread.sleep(1000);
            status = ingest.get("/api/crawls/" + crawlId);
            JsonNode pages = status.path("pages");
            int limit = status.path("request").path("maxPages").asInt(100);
            int filled = Math.min(30, pages.path("fetched").asInt() * 30 / Math.max(1, limit));
            String line = String.format(Locale.ROOT, "  [%s%s] %s: %d/%d pages fetched, %d skipped, %d failed", "#".repeat(filled), ".".repeat(30 - filled),
                    status.path("state").asText(), pages.path("fetched").asInt(), limit, pages.path("skipped").asInt(),
                    pages.path("failed").asInt());
            if (!line.equals(shown)) {
                System.out.print(System.console() != null ? "\r" + line + "   " : line + "\n");
                shown = line;
            }
        } while ("running".equals(status.path("state").asText()));
        System.out.println();
        status.path("failures").forEach(f -> System.out.println("  failed: " + f.path("url").asText() + " — " + f.path("reason").asText()));
        System.out.println("pages are ingested as they arrive; follow them with: curl " + url + "/api/jobs/" + status.path("jobId").asText());
        return "failed".equals(status.path("state").asText()) ? 1 : 0;
    }

    private static void putIfSet(Map<String, Object> request, String key, Object value) {
        if (value != null) {
            request.put(key, value);
        }
    }
}
