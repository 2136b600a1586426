package dev.openrag.ingest.source.crawl;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.jboss.logging.Logger;

import dev.openrag.ingest.credentials.Credential;
import dev.openrag.ingest.credentials.CredentialStore;
import dev.openrag.ingest.credentials.SiteOrigin;
import dev.openrag.ingest.source.Collections;
import dev.openrag.ingest.source.DocumentPublisher;
import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.knowledge.fetch.AddressPolicy;
import dev.openrag.knowledge.fetch.SafeFetcher;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.Ids;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import io.smallrye.reactive.messaging.MutinyEmitter;

/**
 * Starts, follows, reschedules and stops crawls. Each run has its own thread (one browser each);
 * pages go into the pipeline through {@link DocumentPublisher} as they are read. A crawl runs on
 * the instance that started or claimed it; requests, owners (leases) and statuses are kept in
 * Neo4j ({@link CrawlStore}), so a restart resumes running and scheduled crawls, another instance
 * takes over those of an instance that died, and every instance shows and stops every crawl.
 */
@ApplicationScoped
public class CrawlService {

    private static final Logger LOG = Logger.getLogger(CrawlService.class);

    private static final int MAX_DEPTH = 10;
    private static final int MAX_PAGES = 100_000;
    private static final int LISTED_FROM_STORE = 1000;

    private final Map<String, Crawl> crawls = new ConcurrentHashMap<>();
    private final ExecutorService runs = Executors.newCachedThreadPool(Thread.ofPlatform().name("crawl-", 0).daemon().factory());
    private final CrawlerSettings settings;
    private final DocumentPublisher publisher;
    private final StageRunner runner;
    private final MutinyEmitter<String> deletions;
    private final Scheduler scheduler;
    private final CrawlStore store;
    private final SafeFetcher fetcher;
    private final CredentialStore credentials;
    /** This instance, as the owner of the crawls it runs ({@link CrawlStore}). */
    private final String instance = Ids.newEventId();
    private volatile boolean shuttingDown;
    /** Held while this instance claims and resumes orphaned crawls, and while it stops one. */
    private final Object claims = new Object();

    public CrawlService(CrawlerSettings settings, DocumentPublisher publisher, StageRunner runner,
                        @Channel("deleted-out") MutinyEmitter<String> deletions, Scheduler scheduler, CrawlStore store,
                        SafeFetcher fetcher, CredentialStore credentials) {
        this.store = store;
        this.credentials = credentials;
        this.fetcher = fetcher;
        this.settings = settings;
        this.publisher = publisher;
        this.runner = runner;
        this.deletions = deletions;
        this.scheduler = scheduler;
    }

    @PreDestroy
    void stopAll() {
        shuttingDown = true; // the crawls stopped here stay active in the store: the next start resumes them
        List<CrawlStatus> last = crawls.values().stream().map(Crawl::status)
                .filter(status -> "running".equals(status.state()) || "scheduled".equals(status.state())).toList();
        crawls.values().forEach(Crawl::stop);
        runs.shutdownNow();
        try {
            store.renew(instance, last); // their runs so far, which the instance resuming them counts on from
            store.release(instance); // resumed at once by the next instance to look, not after the lease lapses
        } catch (RuntimeException e) {
            LOG.warnf("could not release this instance's crawls (%s): they are resumed when their leases lapse", e.getMessage());
        }
    }

    public CrawlStatus start(CrawlRequest request) {
        return start(null, request, 0);
    }

    /** Starts a new crawl ({@code id} null) or resumes a stored one under its id, counting on from its runs so far. */
    private CrawlStatus start(String id, CrawlRequest request, int runsBefore) {
        if (request == null) {
            throw ApiException.badRequest("missing JSON body {seedUrls, collection, maxDepth, maxPages, ...}");
        }
        if (request.seedUrls() == null || request.seedUrls().isEmpty()) {
            throw ApiException.badRequest("field 'seedUrls' must hold at least one http(s) URL");
        }
        Set<String> hosts = new LinkedHashSet<>();
        for (String seed : request.seedUrls()) {
            String url = UrlRules.normalize(seed == null ? "" : seed)
                    .orElseThrow(() -> ApiException.badRequest("seed '" + seed + "' is not an http(s) URL"));
            hosts.add(UrlRules.host(url));
            try {
                fetcher.policy().check(URI.create(url)); // the server's own ports, cloud metadata, private services
            } catch (AddressPolicy.RefusedException e) {
                if (!e.unresolved()) { // a name that does not resolve fails on its own, recorded per URL
                    throw ApiException.badRequest(e.getMessage());
                }
            }
        }
        int maxDepth = bounded(request.maxDepth(), settings.defaultMaxDepth(), 0, MAX_DEPTH, "maxDepth");
        int maxPages = bounded(request.maxPages(), settings.defaultMaxPages(), 1, MAX_PAGES, "maxPages");
        UrlRules rules = new UrlRules(hosts, request.sameHostOnly() == null || request.sameHostOnly(),
                patterns(request.include(), "include"), patterns(request.exclude(), "exclude"));
        String collection = Collections.require(request.collection());
        try {
            dev.openrag.schemas.Metadata.fromCaller(request.metadataOrNone());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("field 'metadata': " + e.getMessage());
        }
        boolean restored = id != null;
        validateLogin(request.login(), collection, restored);
        if (!new java.io.File(settings.chromium()).canExecute()) {
            throw new ApiException(503, "crawler_unavailable", "Chromium not found at " + settings.chromium()
                    + ": install Debian's chromium package (apt-get install chromium) or set openrag.crawler.chromium");
        }
        String crawlId = restored ? id : Ids.newEventId();
        Crawl crawl = new Crawl(crawlId, request, collection, maxDepth, maxPages, rules, settings, fetcher,
                login -> loginValues(login, collection), sink(), runsBefore);
        if (request.schedule() != null && !request.schedule().isBlank()) {
            schedule(crawl, request.schedule().strip()); // a 400 for an invalid schedule leaves no crawl behind
        }
        if (!restored) {
            try {
                store.save(crawlId, request, instance, crawl.status());
            } catch (RuntimeException e) {
                scheduler.unscheduleJob(jobName(crawlId));
                throw e; // Neo4j away: a 503 naming it, and no crawl that a restart would forget
            }
        }
        crawls.put(crawlId, crawl);
        runs.submit(() -> runAndReschedule(crawl));
        return crawl.status();
    }

    /**
     * Keeps this instance's crawl leases and takes over orphaned crawls, every 10 s from 5 s after start
     * ({@code openrag.crawler.lease-renewal}, {@code openrag.crawler.first-claim}): renews the
     * leases of the crawls running or scheduled here (storing their statuses for the other
     * instances), stops here those stopped through another instance or taken over, then claims and
     * resumes the active crawls nobody holds (running or scheduled when their instance stopped or
     * died). Pages are deduplicated downstream by their deterministic ids, so a page read twice is
     * not indexed twice.
     */
    @Scheduled(every = "${openrag.crawler.lease-renewal:10s}", delayed = "${openrag.crawler.first-claim:5s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class) // a slow start has not wired the Kafka emitters yet
    void keepLeases() {
        if (shuttingDown) {
            return;
        }
        synchronized (claims) {
            renewAndResume();
        }
    }

    private void renewAndResume() {
        List<Crawl> live = crawls.values().stream().filter(this::live).toList();
        List<CrawlStore.Stored> orphans;
        try {
            Set<String> held = store.renew(instance, live.stream().map(Crawl::status).toList());
            for (Crawl crawl : live) {
                if (!held.contains(crawl.id)) {
                    LOG.infof("crawl %s was stopped through another instance or taken over: stopping it here", crawl.id);
                    crawl.stop();
                    scheduler.unscheduleJob(jobName(crawl.id));
                    crawls.remove(crawl.id); // its status is now the store's (its owner's, or stopped)
                }
            }
            orphans = store.claimOrphans(instance);
        } catch (RuntimeException e) {
            LOG.warnf("cannot reach the crawl store (%s); trying again in 10 s", e.getMessage());
            return;
        }
        for (CrawlStore.Stored crawl : orphans) {
            try {
                Crawl previous = crawls.get(crawl.id());
                if (previous != null && live(previous)) {
                    continue; // ours already (a lease renewed late)
                }
                start(crawl.id(), crawl.request(), crawl.runs());
                LOG.infof("resumed crawl %s of %s", crawl.id(), crawl.request().seedUrls());
            } catch (RuntimeException e) {
                LOG.warnf("cannot resume crawl %s: %s", crawl.id(), e.getMessage());
            }
        }
    }

    /** Running, or scheduled to run again: its lease must be kept. */
    private boolean live(Crawl crawl) {
        return crawl.isRunning() || scheduler.getScheduledJob(jobName(crawl.id)) != null;
    }

    /** A crawl run here, else its last status stored by the instance that runs or ran it. */
    public Optional<CrawlStatus> status(String id) {
        Crawl crawl = crawls.get(id);
        return crawl != null ? Optional.of(crawl.status()) : store.status(id);
    }

    /** The crawls run here, and the most recent ones of every other instance. */
    public List<CrawlStatus> all() {
        Map<String, CrawlStatus> all = new java.util.LinkedHashMap<>();
        crawls.values().forEach(crawl -> all.put(crawl.id, crawl.status()));
        try {
            store.statuses(LISTED_FROM_STORE).forEach(status -> all.putIfAbsent(status.crawlId(), status));
        } catch (RuntimeException e) {
            LOG.warnf("crawls of other instances not listed: the crawl store is unreachable (%s)", e.getMessage());
        }
        return List.copyOf(all.values());
    }

    /**
     * Stops a crawl run here at once; one run by another instance is marked finished, and its owner
     * stops it within 10 s. Never while this instance claims and resumes crawls: a crawl claimed
     * here is then either in {@link #crawls} already, or no longer active and so not claimed.
     */
    public Optional<CrawlStatus> stop(String id) {
        synchronized (claims) {
            return stopNow(id);
        }
    }

    private Optional<CrawlStatus> stopNow(String id) {
        Crawl crawl = crawls.get(id);
        if (crawl == null) {
            Optional<CrawlStatus> elsewhere = store.status(id);
            elsewhere.ifPresent(status -> store.finished(id, null));
            return elsewhere.flatMap(status -> store.status(id));
        }
        crawl.stop();
        scheduler.unscheduleJob(jobName(id));
        store.finished(id, crawl.status());
        return Optional.of(crawl.status());
    }

    private void runAndReschedule(Crawl crawl) {
        crawl.run();
        if (scheduler.getScheduledJob(jobName(crawl.id)) != null) {
            crawl.scheduled();
        } else if (!shuttingDown) {
            try {
                store.finished(crawl.id, crawl.status()); // a one-off crawl that ended is not resumed after a restart
            } catch (RuntimeException e) {
                LOG.warnf("crawl %s ended but could not be marked so (%s): a restart will run it again", crawl.id, e.getMessage());
            }
        }
    }

    private void schedule(Crawl crawl, String schedule) {
        try {
            Scheduler.JobDefinition<?> job = scheduler.newJob(jobName(crawl.id))
                    .setConcurrentExecution(Scheduled.ConcurrentExecution.SKIP)
                    .setTask(execution -> {
                        if (!crawl.isRunning()) {
                            runAndReschedule(crawl);
                        }
                    });
            (schedule.contains(" ") ? job.setCron(schedule) : job.setInterval(schedule)).schedule();
        } catch (RuntimeException e) {
            throw ApiException.badRequest("invalid 'schedule' '" + schedule + "': use an interval such as 30m or 1h, "
                    + "or a cron expression such as '0 0 3 * * ?' (" + e.getMessage() + ")");
        }
    }

    private static String jobName(String crawlId) {
        return "recrawl-" + crawlId;
    }

    private Crawl.Sink sink() {
        return new Crawl.Sink() {
            @Override
            public void publish(String jobId, DocumentArrived document) {
                publisher.publish(jobId, document.collection(), List.of(document), List.of());
            }

            @Override
            public void deleted(String jobId, String collection, String documentId) {
                runner.emit(deletions, publisher.deletion(jobId, collection, documentId));
            }

            @Override
            public String newJob() {
                return DocumentPublisher.newJobId();
            }
        };
    }

    private static int bounded(Integer value, int defaultValue, int min, int max, String field) {
        int actual = value == null ? defaultValue : value;
        if (actual < min || actual > max) {
            throw ApiException.badRequest("field '" + field + "' must be between " + min + " and " + max + ", got " + actual);
        }
        return actual;
    }

    private static List<Pattern> patterns(Collection<String> regexes, String field) {
        List<Pattern> patterns = new ArrayList<>();
        for (String regex : regexes == null ? List.<String>of() : regexes) {
            try {
                patterns.add(Pattern.compile(regex));
            } catch (PatternSyntaxException | NullPointerException e) {
                throw ApiException.badRequest("field '" + field + "' holds an invalid regular expression '" + regex + "': "
                        + (e.getMessage() == null ? "null" : e.getMessage().lines().findFirst().orElse("")));
            }
        }
        return patterns;
    }

    /**
     * A login's fields: each a literal or a credential that exists, has the field, serves the crawl's collection (the
     * caller's grant of that collection is checked by the resource) and lists the login page's origin among its sites. A
     * resumed crawl is not checked again here: the browser checks every page's origin before it types
     * ({@link BrowserSession#login}), and a credential deleted or changed since makes the login fail with the reason.
     */
    private void validateLogin(CrawlRequest.Login login, String collection, boolean restored) {
        if (login == null) {
            return;
        }
        if (login.url() == null || UrlRules.normalize(login.url()).isEmpty()) {
            throw ApiException.badRequest("field 'login.url' must be an http(s) URL");
        }
        // where the browser goes for this URL; a URL read differently by a browser fails the check in the browser
        String loginOrigin = SiteOrigin.ofUrl(login.url()).map(SiteOrigin::toString).orElse("the login page " + login.url());
        if (login.fields() == null || login.fields().isEmpty()) {
            throw ApiException.badRequest("field 'login.fields' must map at least one CSS selector to a value");
        }
        if (login.submit() == null || login.submit().isBlank() || login.successSelector() == null || login.successSelector().isBlank()) {
            throw ApiException.badRequest("fields 'login.submit' and 'login.successSelector' are required CSS selectors");
        }
        for (Map.Entry<String, LoginValue> field : login.fields().entrySet()) {
            LoginValue value = field.getValue();
            if (value == null || (value.isCredential() && (value.credential() == null || value.field() == null))) {
                throw ApiException.badRequest("login field '" + field.getKey() + "' must be a string or {\"credential\": NAME, \"field\": FIELD}");
            }
            if (value.isCredential() && !restored) {
                Credential credential = credentials.get(value.credential())
                        .orElseThrow(() -> ApiException.badRequest("login field '" + field.getKey() + "' names credential '"
                                + value.credential() + "', which does not exist"));
                if (!credential.serves(collection)) {
                    throw new ApiException(403, "forbidden", "credential '" + value.credential() + "' does not serve collection '"
                            + collection + "'");
                }
                if (!credential.fields().contains(value.field())) {
                    throw ApiException.badRequest("credential '" + value.credential() + "' has no field '" + value.field() + "'");
                }
                if (!credential.usable()) {
                    throw ApiException.badRequest(credential.reason());
                }
                if (SiteOrigin.ofUrl(login.url()).filter(credential::belongsTo).isEmpty()) {
                    throw ApiException.badRequest("field 'login.url': " + Credential.notASite(loginOrigin, credential.name(), credential.sites())
                            + ": its values are typed only into pages of its sites");
                }
            }
        }
    }

    /**
     * What the login types into each field: literals as given, credential fields read now with their sites (an error names
     * what is wrong).
     */
    private LoginTyping loginValues(CrawlRequest.Login login, String collection) {
        Map<String, String> typed = new java.util.LinkedHashMap<>();
        Map<String, List<String>> sites = new java.util.TreeMap<>();
        login.fields().forEach((selector, value) -> {
            if (!value.isCredential()) {
                typed.put(selector, value.literal());
                return;
            }
            try {
                CredentialStore.BoundValue bound = credentials.value(value.credential(), value.field(), collection);
                typed.put(selector, bound.value());
                sites.put(value.credential(), bound.sites());
            } catch (org.neo4j.driver.exceptions.Neo4jException e) {
                throw new IllegalStateException("credential '" + value.credential() + "' could not be read: Neo4j is unavailable");
            }
        });
        return new LoginTyping(typed, sites);
    }
}
