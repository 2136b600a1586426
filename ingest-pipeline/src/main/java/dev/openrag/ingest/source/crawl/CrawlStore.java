package dev.openrag.ingest.source.crawl;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Value;
import org.neo4j.driver.Values;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.jboss.logging.Logger;

import dev.openrag.ingest.credentials.SecretBox;

/**
 * Crawl records in Neo4j ({@code (:Crawl {id, request, active, owner, leaseUntil, status})}), so
 * that a restart forgets neither a crawl that was running nor a schedule, and so that several
 * ingest instances share them:
 * <ul>
 *   <li>a crawl runs on exactly one instance, its {@code owner}, which renews a lease
 *       ({@code openrag.crawler.lease}, 30 s) while it runs or waits for its next recrawl;</li>
 *   <li>a crawl whose lease lapsed (its instance died) is claimed by another instance, one claim
 *       winning even when two try at once ({@link #claimOrphans});</li>
 *   <li>every renewal stores the crawl's status, so any instance can show it, and an instance
 *       that is asked to stop a crawl it does not run marks it finished: its owner stops it at the
 *       next renewal.</li>
 * </ul>
 * Literal login values are stored sealed ({@link SecretBox}, bound to the crawl's id) beside the
 * request, which shows them as {@code ***}: a scheduled or resumed crawl logs in with them after a
 * restart or on another instance, and Neo4j never holds them in the clear. Credential references
 * hold no secret and are stored as they are.
 */
@ApplicationScoped
public class CrawlStore {

    /** A stored crawl: its id, the request it was started with, and how many runs it made so far. */
    public record Stored(String id, CrawlRequest request, int runs) {
    }

    private static final Logger LOG = Logger.getLogger(CrawlStore.class);

    private final Driver driver;
    private final SecretBox box;
    private final long leaseMillis;
    private final ObjectMapper json = new ObjectMapper();

    @Inject
    public CrawlStore(Driver driver, SecretBox box, CrawlerSettings settings) {
        this(driver, box, settings.lease());
    }

    public CrawlStore(Driver driver, SecretBox box, Duration lease) {
        this.driver = driver;
        this.box = box;
        this.leaseMillis = lease.toMillis();
    }

    /** A new crawl, owned (and leased) by {@code owner}. */
    public void save(String id, CrawlRequest request, String owner, CrawlStatus status) {
        driver.executableQuery("""
                        MERGE (c:Crawl {id: $id})
                        SET c.request = $request, c.active = true, c.savedAt = timestamp(), c.status = $status,
                            c.owner = $owner, c.leaseUntil = timestamp() + $lease, c.loginValues = $loginValues""")
                .withParameters(Map.of("id", id, "request", write(request.redacted()), "status", write(status),
                        "owner", owner, "lease", leaseMillis, "loginValues", sealedLiterals(id, request))).execute();
    }

    /** The crawl ended for good (stopped, or a one-off run finished): not to be resumed by anyone. */
    public void finished(String id, CrawlStatus status) {
        driver.executableQuery("MATCH (c:Crawl {id: $id}) SET c.active = false, c.status = coalesce($status, c.status)")
                .withParameters(Map.of("id", id, "status", status == null ? Values.NULL : Values.value(write(status)))).execute();
    }

    /**
     * Renews the leases of the crawls {@code owner} runs and stores their statuses.
     *
     * @return the ids among them it still owns: a crawl missing from the answer was stopped
     *         through another instance, or taken over after this instance's lease lapsed
     */
    public Set<String> renew(String owner, List<CrawlStatus> running) {
        if (running.isEmpty()) {
            return Set.of();
        }
        List<Map<String, Object>> rows = running.stream()
                .map(status -> Map.<String, Object>of("id", status.crawlId(), "status", write(status))).toList();
        return driver.executableQuery("""
                        UNWIND $crawls AS crawl
                        MATCH (c:Crawl {id: crawl.id}) WHERE c.active AND c.owner = $owner
                        SET c.leaseUntil = timestamp() + $lease, c.status = crawl.status
                        RETURN c.id AS id""")
                .withParameters(Map.of("crawls", rows, "owner", owner, "lease", leaseMillis)).execute()
                .records().stream().map(row -> row.get("id").asString()).collect(Collectors.toSet());
    }

    /**
     * Claims the active crawls nobody holds a lease on (never leased, released at shutdown, or
     * their owner died). Each node is write-locked before its lease is read again, so of two
     * instances claiming at once exactly one gets a crawl.
     */
    public List<Stored> claimOrphans(String owner) {
        return driver.executableQuery("""
                        MATCH (c:Crawl) WHERE c.active AND coalesce(c.leaseUntil, 0) < timestamp()
                        SET c.claiming = true REMOVE c.claiming
                        WITH c WHERE c.active AND coalesce(c.leaseUntil, 0) < timestamp()
                        SET c.owner = $owner, c.leaseUntil = timestamp() + $lease
                        RETURN c.id AS id, c.request AS request, c.status AS status, c.loginValues AS loginValues ORDER BY c.savedAt""")
                .withParameters(Map.of("owner", owner, "lease", leaseMillis)).execute()
                .records().stream()
                .map(row -> {
                    String id = row.get("id").asString();
                    CrawlRequest request = read(row.get("request", Values.value("{}")).asString(), CrawlRequest.class);
                    return new Stored(id, withLiterals(id, request, row.get("loginValues")), runsOf(row.get("status")));
                })
                .toList();
    }

    private static final TypeReference<Map<String, String>> LITERALS = new TypeReference<>() {
    };

    /** The request's literal login values, sealed; "" when it has none. */
    private String sealedLiterals(String id, CrawlRequest request) {
        Map<String, String> literals = request.login() == null ? Map.of() : request.login().literals();
        return literals.isEmpty() ? "" : box.seal(write(literals), "crawl:" + id);
    }

    /** The stored (redacted) request with its literal login values opened again; hidden still when they do not open. */
    private CrawlRequest withLiterals(String id, CrawlRequest request, Value sealed) {
        if (request.login() == null || sealed.isNull() || sealed.asString().isEmpty()) {
            return request;
        }
        try {
            Map<String, String> literals = json.readValue(box.open(sealed.asString(), "crawl:" + id), LITERALS);
            return request.withLogin(request.login().withLiterals(literals));
        } catch (JsonProcessingException | SecretBox.SealException e) {
            LOG.warnf("crawl %s is resumed without its login values (%s): its login will fail", id,
                    e instanceof SecretBox.SealException ? e.getMessage() : "unreadable");
            return request;
        }
    }

    /** The runs a stored status counts; 0 when there is none or it cannot be read (the crawl resumes all the same). */
    private int runsOf(Value status) {
        try {
            return status.isNull() ? 0 : json.readTree(status.asString()).path("runs").asInt(0);
        } catch (JsonProcessingException e) {
            return 0;
        }
    }

    /** At a clean shutdown: the crawls {@code owner} ran may be claimed at once (by its restart or another instance). */
    public void release(String owner) {
        driver.executableQuery("MATCH (c:Crawl {owner: $owner}) WHERE c.active SET c.leaseUntil = 0")
                .withParameters(Map.of("owner", owner)).execute();
    }

    /** The last stored status of a crawl, whichever instance runs or ran it. */
    public Optional<CrawlStatus> status(String id) {
        return driver.executableQuery("MATCH (c:Crawl {id: $id}) WHERE c.status IS NOT NULL RETURN c.status AS status, c.active AS active")
                .withParameters(Map.of("id", id)).execute().records().stream().findFirst().map(CrawlStore::statusOf).map(this::parse);
    }

    /** The last stored statuses of the most recent crawls, whichever instances run them. */
    public List<CrawlStatus> statuses(int limit) {
        return driver.executableQuery("""
                        MATCH (c:Crawl) WHERE c.status IS NOT NULL
                        RETURN c.status AS status, c.active AS active ORDER BY c.savedAt DESC LIMIT $limit""")
                .withParameters(Map.of("limit", limit)).execute().records().stream().map(CrawlStore::statusOf).map(this::parse).toList();
    }

    private static Map.Entry<String, Boolean> statusOf(Record row) {
        return Map.entry(row.get("status").asString(), row.get("active").asBoolean(false));
    }

    /** A crawl stopped through another instance shows as stopped even before its owner's next renewal. */
    private CrawlStatus parse(Map.Entry<String, Boolean> stored) {
        CrawlStatus status = read(stored.getKey(), CrawlStatus.class);
        boolean live = "running".equals(status.state()) || "scheduled".equals(status.state());
        return live && !stored.getValue()
                ? new CrawlStatus(status.crawlId(), status.jobId(), "stopped", status.pages(), status.failures(), status.runs(),
                        status.startedAt(), status.finishedAt(), status.request())
                : status;
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a crawl record is not serialisable", e);
        }
    }

    private <T> T read(String body, Class<T> type) {
        try {
            return json.readValue(body, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored crawl record is unreadable: " + e.getOriginalMessage(), e);
        }
    }
}
