package dev.openrag.ingest.source.sync;

import java.time.Instant;
import java.util.HashMap;
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

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Sources and what they last synced, in Neo4j, so that they survive restarts and every instance shares them:
 * {@code (:SyncSource {id, type, location, collection, ..., owner, leaseUntil, lastRun})} and one
 * {@code (:SyncedFile {sourceId, path, hash, documentId})} per file synced. A file is recorded after its document
 * was published and forgotten after its deletion was: a run that dies between the two only repeats work next time
 * (the document's id is fixed by source and path), it never duplicates a document.
 *
 * <p>The lease works as for crawls: the instance that holds a source's lease runs it (its watch, its schedule, and
 * each run asked for through any instance), renewing it while it keeps it; another instance claims a source whose
 * lease lapsed.
 */
@ApplicationScoped
public class SourceStore {

    /** A stored source. */
    public record Stored(String id, SourceRequest request, String lastCommit, SyncRun lastRun, Instant createdAt, int documents) {
    }

    /** A file as last synced: its content hash, the document it became, and its metadata's fingerprint (null: none recorded). */
    public record SyncedFile(String path, String hash, String documentId, String metadataHash) {

        public SyncedFile(String path, String hash, String documentId) {
            this(path, hash, documentId, null);
        }
    }

    /** A run asked for through some instance, for the source's owner to make. */
    public record RunRequest(String id, String runId, boolean allowMassDelete) {
    }

    private static final int BATCH = 2000;
    /** Runs kept per source for {@code GET /api/sources/{id}/runs/{runId}}: more than can be queued, so every answered id stays. */
    static final int RECENT_RUNS = 40;

    private final Driver driver;
    private final long leaseMillis;
    private final ObjectMapper json;
    private volatile boolean indexed;

    @Inject
    public SourceStore(Driver driver, SourceSettings settings, ObjectMapper json) {
        this(driver, settings.lease(), json);
    }

    public SourceStore(Driver driver, java.time.Duration lease, ObjectMapper json) {
        this.driver = driver;
        this.json = json;
        this.leaseMillis = lease.toMillis();
    }

    private void index() {
        if (!indexed) {
            driver.executableQuery("CREATE INDEX synced_file_source IF NOT EXISTS FOR (f:SyncedFile) ON (f.sourceId)").execute();
            driver.executableQuery("CREATE INDEX synced_file_path IF NOT EXISTS FOR (f:SyncedFile) ON (f.sourceId, f.path)").execute();
            driver.executableQuery("CREATE CONSTRAINT sync_source_id IF NOT EXISTS FOR (s:SyncSource) REQUIRE s.id IS UNIQUE").execute();
            indexed = true;
        }
    }

    /** The source already kept for this location and collection, if any (a second {@code sync} of a folder reuses it). */
    public Optional<Stored> find(String type, String location, String collection) {
        index();
        return driver.executableQuery("""
                        MATCH (s:SyncSource {type: $type, location: $location, collection: $collection})
                        OPTIONAL MATCH (f:SyncedFile {sourceId: s.id})
                        RETURN s, count(f) AS documents""")
                .withParameters(Map.of("type", type, "location", location, "collection", collection)).execute()
                .records().stream().findFirst().map(this::stored);
    }

    public Optional<Stored> get(String id) {
        index();
        return driver.executableQuery("""
                        MATCH (s:SyncSource {id: $id})
                        OPTIONAL MATCH (f:SyncedFile {sourceId: s.id})
                        RETURN s, count(f) AS documents""")
                .withParameters(Map.of("id", id)).execute().records().stream().findFirst().map(this::stored);
    }

    public List<Stored> list(int limit) {
        index();
        return driver.executableQuery("""
                        MATCH (s:SyncSource) WITH s ORDER BY s.createdAt DESC LIMIT $limit
                        OPTIONAL MATCH (f:SyncedFile {sourceId: s.id})
                        RETURN s, count(f) AS documents""")
                .withParameters(Map.of("limit", limit)).execute().records().stream().map(this::stored).toList();
    }

    /** Creates or updates a source's request; a new one is leased to {@code owner}. */
    public void save(String id, SourceRequest request, String owner) {
        index();
        Map<String, Object> params = new HashMap<>();
        params.put("id", id);
        params.put("type", request.type());
        params.put("location", request.location());
        params.put("collection", request.collection());
        params.put("include", request.includeOrNone());
        params.put("exclude", request.excludeOrNone());
        params.put("branch", request.branch());
        params.put("schedule", request.scheduled() ? request.schedule().strip() : null);
        params.put("watch", request.watching());
        params.put("metadata", request.metadataOrNone().isEmpty() ? null : write(request.metadataOrNone()));
        params.put("owner", owner);
        params.put("lease", leaseMillis);
        driver.executableQuery("""
                        MERGE (s:SyncSource {id: $id})
                        ON CREATE SET s.createdAt = timestamp(), s.owner = $owner, s.leaseUntil = timestamp() + $lease
                        SET s.type = $type, s.location = $location, s.collection = $collection, s.include = $include,
                            s.exclude = $exclude, s.branch = $branch, s.schedule = $schedule, s.watch = $watch,
                            s.metadata = $metadata""")
                .withParameters(params).execute();
    }

    /** Forgets a source and its files (its documents are the caller's business). */
    public void delete(String id) {
        driver.executableQuery("MATCH (s:SyncSource {id: $id}) DETACH DELETE s").withParameters(Map.of("id", id)).execute();
        long removed;
        do {
            removed = driver.executableQuery("""
                            MATCH (f:SyncedFile {sourceId: $id}) WITH f LIMIT $batch DELETE f RETURN count(*) AS n""")
                    .withParameters(Map.of("id", id, "batch", BATCH)).execute().records().get(0).get("n").asLong();
        } while (removed > 0);
    }

    /** Path → file as last synced. */
    public Map<String, SyncedFile> files(String id) {
        Map<String, SyncedFile> files = new HashMap<>();
        driver.executableQuery("""
                        MATCH (f:SyncedFile {sourceId: $id})
                        RETURN f.path AS path, f.hash AS hash, f.documentId AS documentId, f.metadataHash AS metadataHash""")
                .withParameters(Map.of("id", id)).execute().records()
                .forEach(row -> files.put(row.get("path").asString(),
                        new SyncedFile(row.get("path").asString(), row.get("hash").asString(), row.get("documentId").asString(),
                                row.get("metadataHash").asString(null))));
        return files;
    }

    /** Records files whose documents were published (not once the source is deleted: its run's late records would be orphans). */
    public void synced(String id, List<SyncedFile> files) {
        for (int from = 0; from < files.size(); from += BATCH) {
            List<Map<String, Object>> rows = files.subList(from, Math.min(files.size(), from + BATCH)).stream()
                    .map(file -> {
                        Map<String, Object> row = new HashMap<>(Map.of("path", file.path(), "hash", file.hash(), "documentId", file.documentId()));
                        row.put("metadataHash", file.metadataHash());
                        return row;
                    }).toList();
            driver.executableQuery("""
                            MATCH (:SyncSource {id: $id})
                            UNWIND $files AS file
                            MERGE (f:SyncedFile {sourceId: $id, path: file.path})
                            SET f.hash = file.hash, f.documentId = file.documentId, f.metadataHash = file.metadataHash""")
                    .withParameters(Map.of("id", id, "files", rows)).execute();
        }
    }

    /** Forgets files whose documents' deletions were published. */
    public void forgotten(String id, List<String> paths) {
        for (int from = 0; from < paths.size(); from += BATCH) {
            driver.executableQuery("UNWIND $paths AS path MATCH (f:SyncedFile {sourceId: $id, path: path}) DELETE f")
                    .withParameters(Map.of("id", id, "paths", paths.subList(from, Math.min(paths.size(), from + BATCH)))).execute();
        }
    }

    /** Records a run as it starts, goes on and ends: the source's last run, and one of its recent runs. */
    public void run(String id, SyncRun run, String commit) {
        Map<String, Object> params = new HashMap<>();
        params.put("id", id);
        params.put("run", write(run));
        params.put("runId", run.runId());
        params.put("commit", commit);
        params.put("kept", RECENT_RUNS);
        driver.executableQuery("""
                        MATCH (s:SyncSource {id: $id})
                        WITH s, [i IN range(0, size(coalesce(s.runIds, [])) - 1) WHERE s.runIds[i] <> $runId] AS others
                        SET s.runIds = ([i IN others | s.runIds[i]] + $runId)[-$kept..],
                            s.runs = ([i IN others | s.runs[i]] + $run)[-$kept..],
                            s.lastRun = CASE WHEN $queued THEN s.lastRun ELSE $run END,
                            s.lastCommit = coalesce($commit, s.lastCommit)""")
                .withParameters(withQueued(params, SyncRun.QUEUED.equals(run.state()))).execute();
    }

    private static Map<String, Object> withQueued(Map<String, Object> params, boolean queued) {
        params.put("queued", queued);
        return params;
    }

    /** The source's recent runs (queued, running and ended; the last {@value #RECENT_RUNS}), newest first. */
    public List<SyncRun> runs(String id) {
        List<SyncRun> runs = new java.util.ArrayList<>(driver.executableQuery("MATCH (s:SyncSource {id: $id}) RETURN coalesce(s.runs, []) AS runs")
                .withParameters(Map.of("id", id)).execute().records().stream()
                .flatMap(row -> row.get("runs").asList(Value::asString).stream()).map(this::readRun).filter(java.util.Objects::nonNull).toList());
        java.util.Collections.reverse(runs);
        return runs;
    }

    /** Takes the source's lease for {@code owner} when it is free, lapsed or already {@code owner}'s. */
    public boolean claim(String id, String owner) {
        return !driver.executableQuery("""
                        MATCH (s:SyncSource {id: $id})
                        SET s.claiming = true REMOVE s.claiming
                        WITH s WHERE s.owner = $owner OR coalesce(s.leaseUntil, 0) < timestamp()
                        SET s.owner = $owner, s.leaseUntil = timestamp() + $lease
                        RETURN s.id""")
                .withParameters(Map.of("id", id, "owner", owner, "lease", leaseMillis)).execute().records().isEmpty();
    }

    /** Renews {@code owner}'s leases of these sources; returns those it still holds. */
    public Set<String> renew(String owner, Set<String> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        return driver.executableQuery("""
                        MATCH (s:SyncSource) WHERE s.id IN $ids AND s.owner = $owner
                        SET s.leaseUntil = timestamp() + $lease RETURN s.id AS id""")
                .withParameters(Map.of("ids", List.copyOf(ids), "owner", owner, "lease", leaseMillis)).execute()
                .records().stream().map(row -> row.get("id").asString()).collect(Collectors.toSet());
    }

    /** Claims the watched or scheduled sources, and those with a run asked for, that nobody holds (their instance stopped or died). */
    public List<Stored> claimOrphans(String owner) {
        index();
        return driver.executableQuery("""
                        MATCH (s:SyncSource) WHERE (s.watch OR s.schedule IS NOT NULL OR s.runRequests IS NOT NULL)
                          AND coalesce(s.leaseUntil, 0) < timestamp()
                        SET s.claiming = true REMOVE s.claiming
                        WITH s WHERE coalesce(s.leaseUntil, 0) < timestamp()
                        SET s.owner = $owner, s.leaseUntil = timestamp() + $lease
                        WITH s OPTIONAL MATCH (f:SyncedFile {sourceId: s.id})
                        RETURN s, count(f) AS documents""")
                .withParameters(Map.of("owner", owner, "lease", leaseMillis)).execute().records().stream().map(this::stored).toList();
    }

    /** At a clean shutdown: the sources {@code owner} held may be claimed at once. */
    public void release(String owner) {
        driver.executableQuery("MATCH (s:SyncSource {owner: $owner}) SET s.leaseUntil = 0").withParameters(Map.of("owner", owner)).execute();
    }

    /** Asks the source's owner for a run; runs asked for meanwhile wait in order, each with its own id and options. */
    public void requestRun(String id, String runId, boolean allowMassDelete) {
        driver.executableQuery("""
                        MATCH (s:SyncSource {id: $id})
                        SET s.runRequests = coalesce(s.runRequests, []) + $runId, s.runRequestsAllow = coalesce(s.runRequestsAllow, []) + $allow""")
                .withParameters(Map.of("id", id, "runId", runId, "allow", allowMassDelete)).execute();
    }

    /** The runs asked for of the sources {@code owner} holds, in the order asked, each taken once. */
    public List<RunRequest> takeRunRequests(String owner) {
        return driver.executableQuery("""
                        MATCH (s:SyncSource {owner: $owner}) WHERE s.runRequests IS NOT NULL
                        WITH s, s.runRequests AS runIds, s.runRequestsAllow AS allows
                        REMOVE s.runRequests, s.runRequestsAllow
                        WITH s, runIds, allows UNWIND range(0, size(runIds) - 1) AS i
                        RETURN s.id AS id, runIds[i] AS runId, coalesce(allows[i], false) AS allow ORDER BY id, i""")
                .withParameters(Map.of("owner", owner)).execute().records().stream()
                .map(row -> new RunRequest(row.get("id").asString(), row.get("runId").asString(), row.get("allow").asBoolean())).toList();
    }

    private Stored stored(Record row) {
        Value s = row.get("s");
        SourceRequest request = new SourceRequest(s.get("type").asString(), s.get("location").asString(), s.get("collection").asString(),
                s.get("include").asList(Value::asString, List.of()), s.get("exclude").asList(Value::asString, List.of()),
                s.get("branch").asString(null), s.get("schedule").asString(null), s.get("watch").asBoolean(false),
                readMetadata(s.get("metadata").asString(null)));
        SyncRun lastRun = s.get("lastRun").isNull() ? null : readRun(s.get("lastRun").asString());
        return new Stored(s.get("id").asString(), request, s.get("lastCommit").asString(null), lastRun,
                Instant.ofEpochMilli(s.get("createdAt").asLong(0)), (int) row.get("documents").asLong());
    }

    private Map<String, Object> readMetadata(String stored) {
        try {
            return stored == null ? null : json.readValue(stored, new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a source's metadata is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    private SyncRun readRun(String stored) {
        try {
            return json.readValue(stored, SyncRun.class);
        } catch (JsonProcessingException e) {
            return null; // an unreadable record only loses the report, never the source
        }
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a source record is not serialisable", e);
        }
    }
}
