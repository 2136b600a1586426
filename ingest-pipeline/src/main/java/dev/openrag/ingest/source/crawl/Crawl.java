package dev.openrag.ingest.source.crawl;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

import org.jboss.logging.Logger;

import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.TimeoutError;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import dev.openrag.knowledge.fetch.AddressPolicy;
import dev.openrag.knowledge.fetch.SafeFetcher;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.Source;

/**
 * One crawl: breadth-first from the seeds within depth and page limits, each page published as
 * soon as it is read (the pipeline works while the crawl goes on). Politeness: robots.txt
 * (disallow, crawl-delay), a per-host rate limit, timeouts, a page size limit. A page whose
 * content did not change since the last run makes no new version; a page gone (404/410) since the
 * last run is deleted. Every URL that fails is recorded with its reason; nothing stops the crawl
 * but {@link #stop()}.
 */
final class Crawl {

    /** Where a crawl's pages and deletions go (the pipeline's sources). */
    interface Sink {
        void publish(String jobId, DocumentArrived document);

        void deleted(String jobId, String collection, String documentId);

        String newJob();
    }

    private static final Logger LOG = Logger.getLogger(Crawl.class);
    private static final Pattern FILE_EXTENSION = Pattern.compile(".*\\.(pdf|docx?|epub|pptx?|xlsx?|odt|rtf)$");

    final String id;
    private final CrawlRequest request;
    private final String collection;
    private final int maxDepth;
    private final int maxPages;
    private final UrlRules rules;
    private final SafeFetcher fetcher;
    private final CrawlerSettings settings;
    /** What each login field is to be typed with: literals as they are, credentials read at login. */
    private final java.util.function.Function<CrawlRequest.Login, LoginTyping> loginValues;
    private final Sink sink;

    private volatile String state = "running";
    private volatile String jobId;
    private volatile boolean stopped;
    private volatile Instant startedAt;
    private volatile Instant finishedAt;
    /** Runs across restarts: a resumed crawl goes on counting from its stored status. */
    private final AtomicInteger runs;
    /** Whether this object ran once already: its first run uses the job it was made with, later ones a new job. */
    private boolean ranHere;
    private final AtomicInteger fetched = new AtomicInteger();
    private final AtomicInteger skipped = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final List<CrawlStatus.Failure> failures = new CopyOnWriteArrayList<>();
    /** Content hash of each page published, across runs: unchanged pages make no new version. */
    private final Map<String, String> publishedHashes = new HashMap<>();

    Crawl(String id, CrawlRequest request, String collection, int maxDepth, int maxPages, UrlRules rules,
          CrawlerSettings settings, SafeFetcher fetcher, java.util.function.Function<CrawlRequest.Login, LoginTyping> loginValues,
          Sink sink, int runsBefore) {
        this.id = id;
        this.runs = new AtomicInteger(runsBefore);
        this.fetcher = fetcher;
        this.request = request;
        this.collection = collection;
        this.maxDepth = maxDepth;
        this.maxPages = maxPages;
        this.rules = rules;
        this.settings = settings;
        this.loginValues = loginValues;
        this.sink = sink;
        this.jobId = sink.newJob();
    }

    CrawlStatus status() {
        return new CrawlStatus(id, jobId, state, new CrawlStatus.Pages(fetched.get(), skipped.get(), failed.get()),
                List.copyOf(failures), runs.get(), startedAt == null ? null : startedAt.toString(),
                finishedAt == null ? null : finishedAt.toString(), request.redacted());
    }

    boolean isRunning() {
        return "running".equals(state);
    }

    void stop() {
        stopped = true;
        state = "stopped";
    }

    void scheduled() {
        if (!stopped) {
            state = "scheduled";
        }
    }

    /** One run over the site; a recrawl calls it again (with a new job). */
    synchronized void run() {
        if (stopped) {
            return;
        }
        if (ranHere) {
            jobId = sink.newJob();
        }
        ranHere = true;
        runs.incrementAndGet();
        state = "running";
        startedAt = Instant.now();
        finishedAt = null;
        fetched.set(0);
        skipped.set(0);
        failed.set(0);
        failures.clear();
        try (BrowserSession browser = new BrowserSession(settings, fetcher.policy())) {
            crawl(browser);
            state = stopped ? "stopped" : "completed";
        } catch (CrawlerUnavailableException e) {
            fail(String.join(",", request.seedUrls()), e.getMessage());
            state = "failed";
        } catch (BrowserSession.LoginRefusedException e) {
            fail(request.login().url(), e.getMessage()); // a credential's value about to go to another site: no page is read
            state = "failed";
        } catch (RuntimeException e) {
            LOG.errorf(e, "crawl %s failed", id);
            fail(String.join(",", request.seedUrls()), "the crawl stopped: " + e.getMessage());
            state = "failed";
        } finally {
            finishedAt = Instant.now();
        }
    }

    private void crawl(BrowserSession browser) {
        HostRateLimiter limiter = new HostRateLimiter(settings.requestsPerSecond());
        RawFetcher raw = new RawFetcher(settings, fetcher);
        Map<String, BaseRobotRules> robots = new HashMap<>();
        if (request.login() != null) {
            logIn(browser);
        }
        Set<String> seen = new HashSet<>();
        Set<String> contentThisRun = new HashSet<>();
        Set<String> published = new LinkedHashSet<>();
        Deque<Map.Entry<String, Integer>> queue = new ArrayDeque<>();
        for (String seed : request.seedUrls()) {
            UrlRules.normalize(seed).filter(seen::add).ifPresent(url -> queue.add(Map.entry(url, 0)));
        }
        while (!queue.isEmpty() && !stopped && fetched.get() < maxPages) {
            Map.Entry<String, Integer> next = queue.poll();
            String url = next.getKey();
            int depth = next.getValue();
            if (rules.refusal(url).isPresent()) {
                skipped.incrementAndGet();
                continue;
            }
            String host = UrlRules.host(url);
            BaseRobotRules hostRules = robots.computeIfAbsent(host, h -> robotsOf(url, raw, limiter));
            if (!hostRules.isAllowed(url)) {
                skipped.incrementAndGet();
                failures.add(new CrawlStatus.Failure(url, "disallowed by robots.txt"));
                continue;
            }
            try {
                List<String> links;
                try (var turn = limiter.acquire(host, Math.max(0, hostRules.getCrawlDelay()))) {
                    links = FILE_EXTENSION.matcher(url.toLowerCase(Locale.ROOT)).matches()
                            ? fetchFile(url, raw, published) : fetchPage(url, browser, raw, contentThisRun, published);
                }
                if (depth < maxDepth) {
                    for (String link : links) {
                        UrlRules.normalize(link).filter(seen::add).ifPresent(found -> queue.add(Map.entry(found, depth + 1)));
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stopped = true;
            } catch (TimeoutError e) {
                fail(url, "timed out after " + settings.pageTimeout().toSeconds() + " s");
            } catch (BrowserSession.PageTooLargeException | AddressPolicy.RefusedException e) {
                fail(url, e.getMessage());
            } catch (PlaywrightException e) {
                fail(url, firstLine(e.getMessage()));
            } catch (java.io.IOException e) {
                fail(url, e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
            } finally {
                reportRefusedRequests(browser, url);
            }
        }
        if (!stopped) {
            deleteGonePages(published, raw, limiter);
        }
    }

    private void logIn(BrowserSession browser) {
        CrawlRequest.Login login = request.login();
        try {
            if (!browser.login(login, loginValues.apply(login))) {
                fail(login.url(), "login failed: '" + login.successSelector() + "' did not appear after submitting");
            }
        } catch (IllegalStateException e) {
            fail(login.url(), "login failed: " + e.getMessage());
        } catch (PlaywrightException e) {
            fail(login.url(), "login failed: " + firstLine(e.getMessage()));
        } finally {
            reportRefusedRequests(browser, login.url());
        }
    }

    /**
     * The requests a page made that the fetch rules refused (its scripts, subresources, redirect
     * hops, WebSockets) go on the report under their own URL; they do not count as failed pages.
     * Requests to hosts that do not resolve are left out.
     */
    private void reportRefusedRequests(BrowserSession browser, String pageUrl) {
        for (PolicyProxy.Refusal refusal : browser.drainRefusals()) {
            if (refusal.unresolved()) {
                continue; // a broken link to nowhere (or Chromium's own calls home offline), not a refusal
            }
            failures.add(new CrawlStatus.Failure(refusal.url(), "request refused (made while loading " + pageUrl + "): " + refusal.reason()));
            LOG.infof("crawl %s: %s refused while loading %s", id, refusal.url(), pageUrl);
        }
    }

    private List<String> fetchPage(String url, BrowserSession browser, RawFetcher raw, Set<String> contentThisRun,
                                   Set<String> published) throws java.io.IOException, InterruptedException {
        RenderedPage page;
        try {
            page = browser.render(url);
        } catch (BrowserSession.DownloadInsteadException e) {
            return fetchFile(url, raw, published);
        }
        if (page.status() >= 400) {
            goneOrFailed(url, page.status());
            return List.of();
        }
        if (!page.isHtml()) {
            return fetchFile(url, raw, published);
        }
        String markdown = page.markdown() == null ? "" : page.markdown().strip();
        if (markdown.isEmpty()) {
            skipped.incrementAndGet();
            return page.links();
        }
        String hash = Ids.contentHash(markdown);
        if (!contentThisRun.add(hash)) {
            skipped.incrementAndGet(); // the same content under another URL
            return page.links();
        }
        published.add(url);
        if (hash.equals(publishedHashes.get(url))) {
            skipped.incrementAndGet(); // unchanged since the last run: no new version
            return page.links();
        }
        String title = page.title() == null || page.title().isBlank() ? url : page.title();
        sink.publish(jobId, new DocumentArrived(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), Ids.documentIdFromUri(url),
                jobId, collection, new Source("crawler", url), title, "text/markdown", "# " + title + "\n\n" + markdown,
                DocumentArrived.TEXT, null, metadata(url)));
        publishedHashes.put(url, hash);
        fetched.incrementAndGet();
        return page.links();
    }

    /** Files go to the parse stage as they are (Tika reads PDF, DOCX, EPUB, ...). */
    private List<String> fetchFile(String url, RawFetcher raw, Set<String> published) throws java.io.IOException, InterruptedException {
        RawFetcher.Fetched file = raw.get(url);
        if (file.status() >= 400) {
            goneOrFailed(url, file.status());
            return List.of();
        }
        if (file.tooLarge()) {
            fail(url, "file larger than " + settings.maxPageBytes() + " bytes (openrag.crawler.max-page-bytes)");
            return List.of();
        }
        String hash = Ids.contentHash(Base64.getEncoder().encodeToString(file.body()));
        published.add(url);
        if (hash.equals(publishedHashes.get(url))) {
            skipped.incrementAndGet();
            return List.of();
        }
        sink.publish(jobId, new DocumentArrived(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), Ids.documentIdFromUri(url),
                jobId, collection, new Source("crawler", url), null, file.contentType(),
                Base64.getEncoder().encodeToString(file.body()), DocumentArrived.BASE64, null, metadata(url)));
        publishedHashes.put(url, hash);
        fetched.incrementAndGet();
        return List.of();
    }

    private Map<String, Object> metadata(String url) {
        return pageMetadata(request.metadataOrNone(), id, url);
    }

    /**
     * A page's metadata: the crawl's own (the caller's), and the source fields {@code crawlId}, {@code url} and
     * {@code host} (parsing adds its title), which do not count among the caller's keys.
     */
    static Map<String, Object> pageMetadata(Map<String, Object> crawlMetadata, String crawlId, String url) {
        Map<String, Object> metadata = new java.util.LinkedHashMap<>(crawlMetadata);
        metadata.put("crawlId", crawlId);
        metadata.putAll(dev.openrag.ingest.source.SourceFields.page(url));
        return metadata;
    }

    private void goneOrFailed(String url, int status) {
        if ((status == 404 || status == 410) && publishedHashes.remove(url) != null) {
            sink.deleted(jobId, collection, Ids.documentIdFromUri(url));
            fail(url, "HTTP " + status + ": the page is gone, its document was deleted");
        } else {
            fail(url, "HTTP " + status);
        }
    }

    /** Pages published by an earlier run that this run did not reach: asked directly, deleted when gone. */
    private void deleteGonePages(Set<String> reachedThisRun, RawFetcher raw, HostRateLimiter limiter) {
        for (String url : new ArrayList<>(publishedHashes.keySet())) {
            if (reachedThisRun.contains(url)) {
                continue;
            }
            try {
                int status;
                try (var turn = limiter.acquire(UrlRules.host(url), 0)) {
                    status = raw.get(url).status();
                }
                if (status == 404 || status == 410) {
                    goneOrFailed(url, status);
                }
            } catch (java.io.IOException | AddressPolicy.RefusedException e) {
                LOG.debugf("could not re-check %s: %s", url, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private BaseRobotRules robotsOf(String url, RawFetcher raw, HostRateLimiter limiter) {
        String robotsUrl = url.substring(0, url.indexOf('/', url.indexOf("//") + 2)) + "/robots.txt";
        SimpleRobotRulesParser parser = new SimpleRobotRulesParser();
        try {
            RawFetcher.Fetched robots;
            try (var turn = limiter.acquire(UrlRules.host(url), 0)) {
                robots = raw.get(robotsUrl);
            }
            if (robots.status() >= 400) {
                return parser.failedFetch(robots.status());
            }
            return parser.parseContent(robotsUrl, robots.body(), "text/plain", List.of(settings.userAgent().toLowerCase(Locale.ROOT)));
        } catch (java.io.IOException | AddressPolicy.RefusedException e) {
            return parser.failedFetch(404); // unreachable or refused robots.txt: the pages will fail on their own
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return parser.failedFetch(503);
        }
    }

    private void fail(String url, String reason) {
        failed.incrementAndGet();
        failures.add(new CrawlStatus.Failure(url, reason));
        LOG.infof("crawl %s: %s failed: %s", id, url, reason);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "browser error";
        }
        String line = message.lines().filter(l -> !l.isBlank()).findFirst().orElse(message).strip();
        return line.length() > 300 ? line.substring(0, 300) : line;
    }
}
