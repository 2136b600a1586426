package dev.openrag.ingest.source.sync;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.jboss.logging.Logger;

import dev.openrag.ingest.job.JobStatus;
import dev.openrag.ingest.job.JobTracker;
import dev.openrag.ingest.source.Collections;
import dev.openrag.ingest.source.DocumentPublisher;
import dev.openrag.ingest.source.Uploads;
import dev.openrag.ingest.source.crawl.PolicyProxy;
import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.parse.DocumentParser;
import dev.openrag.knowledge.fetch.AddressPolicy;
import dev.openrag.knowledge.fetch.SafeFetcher;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.Source;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import io.smallrye.reactive.messaging.MutinyEmitter;

/**
 * Keeps collections equal to folders and git repositories (issue 62). A run reads the source, compares it with what
 * the last run synced ({@link SyncPlan}), publishes the added and changed files as documents (each with an id fixed
 * by source and path, so a changed file replaces its document in every store), publishes the deletions of the files
 * that are gone, and waits for the job that carries them. Documents of other sources and uploads are never touched:
 * a run only ever names its own source's document ids.
 *
 * <p>Guards: a source that cannot be read fails its run and changes nothing; a run that would delete more than half
 * of the source's documents (an unmounted or emptied folder) is blocked until asked with {@code allowMassDelete}.
 *
 * <p>Each source runs on one instance, the holder of its lease ({@link SourceStore}); a run asked for through
 * another instance is made by the holder within a renewal (10 s).
 */
@ApplicationScoped
public class SyncService {

    private static final Logger LOG = Logger.getLogger(SyncService.class);
    private static final long PUBLISH_BATCH_BYTES = 32L * 1024 * 1024;
    private static final int LISTED = 1000;

    private final SourceStore store;
    private final SourceSettings settings;
    private final Uploads uploads;
    private final DocumentPublisher publisher;
    private final StageRunner runner;
    private final MutinyEmitter<String> deletions;
    private final JobTracker jobs;
    private final Scheduler scheduler;
    private final SafeFetcher fetcher;
    private final SourceRoots roots;
    private final long maxDocumentBytes;
    private final String instance = Ids.newEventId();
    private final ExecutorService runs = Executors.newCachedThreadPool(Thread.ofPlatform().name("sync-", 0).daemon().factory());
    /** Sources with a run here now → the runs asked for meanwhile, in order, each with its own id and options. */
    private final Map<String, Deque<Queued>> running = new ConcurrentHashMap<>();
    /** Sources being deleted: their run stops at its next file. */
    private final Set<String> stopping = ConcurrentHashMap.newKeySet();
    /** Each source's last job here: a delete waits for it, so that no document of it is written after its deletion. */
    private final Map<String, String> lastJobs = new ConcurrentHashMap<>();
    /** Sources this instance keeps (watch or schedule) → their watch, if any; and the request each was kept with. */
    private final Map<String, Optional<FolderWatch>> kept = new ConcurrentHashMap<>();
    private final Map<String, SourceRequest> keptAs = new ConcurrentHashMap<>();
    private volatile PolicyProxy gitProxy;
    private volatile boolean shuttingDown;

    public SyncService(SourceStore store, SourceSettings settings, Uploads uploads, DocumentPublisher publisher, StageRunner runner,
                       @Channel("deleted-out") MutinyEmitter<String> deletions, JobTracker jobs, Scheduler scheduler,
                       SafeFetcher fetcher, SourceRoots roots, DocumentParser parser) {
        this.store = store;
        this.settings = settings;
        this.uploads = uploads;
        this.publisher = publisher;
        this.runner = runner;
        this.deletions = deletions;
        this.jobs = jobs;
        this.scheduler = scheduler;
        this.fetcher = fetcher;
        this.roots = roots;
        this.maxDocumentBytes = parser.maxBytes();
    }

    @PreDestroy
    void stop() {
        shuttingDown = true;
        kept.values().forEach(watch -> watch.ifPresent(FolderWatch::close));
        runs.shutdownNow();
        try {
            store.release(instance);
        } catch (RuntimeException e) {
            LOG.warnf("could not release this instance's sources (%s): they move on when their leases lapse", e.getMessage());
        }
        if (gitProxy != null) {
            gitProxy.close();
        }
    }

    /** Creates a source, or updates the one kept already for the same location and collection. */
    public SourceView save(SourceRequest given) {
        SourceRequest request = validated(given);
        String id = store.find(request.type(), request.location(), request.collection()).map(SourceStore.Stored::id)
                .orElseGet(Ids::newEventId);
        if (request.scheduled()) {
            checkSchedule(request.schedule().strip());
        }
        store.save(id, request, instance);
        SourceStore.Stored saved = store.get(id).orElseThrow();
        if (store.claim(id, instance)) {
            keepIfChanged(saved);
        }
        return view(saved);
    }

    public Optional<SourceView> get(String id) {
        return store.get(id).map(this::view);
    }

    public List<SourceView> all() {
        return store.list(LISTED).stream().map(this::view).toList();
    }

    /**
     * Runs a source now, or after the runs already asked for (here, or through its owner); returns the run's id, which
     * is recorded at once ({@code queued}) and ends with a state.
     */
    public String run(String id, boolean allowMassDelete) {
        SourceStore.Stored source = store.get(id).orElseThrow(() -> ApiException.notFound("no source '" + id + "'"));
        // the count and the run's place in the queue at once: requests made together cannot all pass the count
        synchronized (runLocks.computeIfAbsent(id, key -> new Object())) {
            Deque<Queued> waiting = running.get(id);
            if (waiting != null && waiting.size() >= MAX_QUEUED) {
                throw new ApiException(429, "too_many_requests", "source '" + id + "' already has " + MAX_QUEUED
                        + " runs waiting: ask again when they have run");
            }
            String runId = Ids.newEventId();
            store.run(id, SyncRun.queued(runId, allowMassDelete), null);
            if (store.claim(id, instance)) {
                keepIfChanged(source);
                start(id, new Queued(runId, allowMassDelete, true));
            } else {
                store.requestRun(id, runId, allowMassDelete); // its owner makes it within a renewal
            }
            return runId;
        }
    }

    /** Per source: one request at a time counts the runs waiting and joins them. */
    private final Map<String, Object> runLocks = new ConcurrentHashMap<>();

    /** The source's recent runs, newest first (a run id the API answered is among them until it is one of the oldest). */
    public List<SyncRun> runs(String id) {
        store.get(id).orElseThrow(() -> ApiException.notFound("no source '" + id + "'"));
        return store.runs(id);
    }

    /** Forgets a source here and everywhere; with {@code deleteDocuments}, its documents go from every store too. */
    public Optional<SourceView> delete(String id, boolean deleteDocuments) {
        Optional<SourceStore.Stored> source = store.get(id);
        source.ifPresent(stored -> {
            unkeep(id);
            stopRun(id);
            String lastJob = lastJobs.remove(id);
            if (deleteDocuments && lastJob != null) {
                awaitJobEnd(lastJob);
            }
            if (deleteDocuments) {
                List<SourceStore.SyncedFile> files = List.copyOf(store.files(id).values());
                String jobId = DocumentPublisher.newJobId();
                jobs.deleting(jobId, stored.request().collection(), files.stream().map(SourceStore.SyncedFile::documentId).toList());
                files.forEach(file -> deleteDocument(jobId, stored.request().collection(), file.documentId()));
            }
            store.delete(id);
            stopping.remove(id);
            runLocks.remove(id);
        });
        return source.map(this::view);
    }

    /**
     * Stops the source's run here, if it has one, and drops the runs waiting after it; waits (a little) until it stopped,
     * so that its documents are all known before they are deleted. A run on another instance stops when it sees the
     * source gone.
     */
    private void stopRun(String id) {
        stopping.add(id);
        running.computeIfPresent(id, (key, waiting) -> {
            waiting.clear();
            return waiting;
        });
        long deadline = System.nanoTime() + STOP_WAIT.toNanos();
        while (running.containsKey(id) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void awaitJobEnd(String jobId) {
        long deadline = System.nanoTime() + STOP_WAIT.toNanos();
        while (System.nanoTime() < deadline && jobs.status(jobId).map(status -> !status.finished()).orElse(false)) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Renews this instance's leases, lets go of the sources it lost, takes over orphans and makes the runs asked of it. */
    @Scheduled(every = "${openrag.sources.lease-renewal:10s}", delay = 5, delayUnit = TimeUnit.SECONDS,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void keepLeases() {
        if (shuttingDown) {
            return;
        }
        try {
            Set<String> mine = new HashSet<>(kept.keySet());
            mine.addAll(running.keySet());
            Set<String> held = store.renew(instance, mine);
            for (String id : List.copyOf(kept.keySet())) {
                Optional<SourceStore.Stored> now = held.contains(id) ? store.get(id) : Optional.empty();
                if (now.isEmpty()) {
                    LOG.infof("source %s was deleted or taken over: no longer kept here", id);
                    unkeep(id);
                } else {
                    keepIfChanged(now.get()); // changed through another instance (a watch stopped, a new schedule)
                }
            }
            for (SourceStore.Stored orphan : store.claimOrphans(instance)) {
                LOG.infof("keeping source %s (%s %s)", orphan.id(), orphan.request().type(), orphan.request().location());
                keep(orphan);
            }
            for (SourceStore.RunRequest request : store.takeRunRequests(instance)) {
                start(request.id(), new Queued(request.runId(), request.allowMassDelete(), true));
            }
        } catch (RuntimeException e) {
            LOG.warnf("cannot reach the source store (%s); trying again in 10 s", e.getMessage());
        }
    }

    /** Keeps the source here as its request says, unless it is kept so already (a watch is not restarted for nothing). */
    private void keepIfChanged(SourceStore.Stored source) {
        if (!source.request().equals(keptAs.get(source.id()))) {
            keep(source);
        }
    }

    /** Starts the source's watch and schedule here (replacing earlier ones: the request may have changed). */
    private void keep(SourceStore.Stored source) {
        unkeep(source.id());
        SourceRequest request = source.request();
        Optional<FolderWatch> watch = Optional.empty();
        if (request.watching() && SourceRequest.FOLDER.equals(request.type())) {
            watch = Optional.of(new FolderWatch(Path.of(request.location()), settings.watchDebounce(),
                    () -> start(source.id(), Queued.unasked())));
        }
        if (request.scheduled()) {
            var job = scheduler.newJob(jobName(source.id())).setConcurrentExecution(Scheduled.ConcurrentExecution.SKIP)
                    .setTask(execution -> start(source.id(), Queued.unasked()));
            String schedule = request.schedule().strip();
            (schedule.contains(" ") ? job.setCron(schedule) : job.setInterval(schedule)).schedule();
        }
        if (watch.isPresent() || request.scheduled()) {
            kept.put(source.id(), watch);
            keptAs.put(source.id(), request);
        }
    }

    private void unkeep(String id) {
        keptAs.remove(id);
        Optional<FolderWatch> watch = kept.remove(id);
        if (watch != null) {
            watch.ifPresent(FolderWatch::close);
        }
        scheduler.unscheduleJob(jobName(id));
    }

    /**
     * A run to make: its id and options; {@code asked} when its id was answered to someone (through the API), so it must
     * run and end with a state. A run of a watch or schedule is not asked: one waiting is enough.
     */
    private record Queued(String runId, boolean allowMassDelete, boolean asked) {
        static Queued unasked() {
            return new Queued(Ids.newEventId(), false, false);
        }
    }

    private static final int MAX_QUEUED = 16;
    private static final java.time.Duration STOP_WAIT = java.time.Duration.ofSeconds(30);

    /** Runs the source on a thread of its own; runs asked for while one runs wait in order and run after it, each as asked. */
    private void start(String id, Queued run) {
        if (shuttingDown) {
            return;
        }
        boolean[] first = {false};
        boolean[] full = {false};
        running.compute(id, (key, waiting) -> {
            if (waiting == null) {
                first[0] = true;
                return new ArrayDeque<>();
            }
            if (run.asked() && waiting.size() >= MAX_QUEUED) {
                full[0] = true; // asked through other instances, past what may wait: it ends now, with the reason
            } else if (run.asked() || waiting.stream().allMatch(Queued::asked)) {
                waiting.add(run);
            }
            return waiting;
        });
        if (first[0]) {
            runs.submit(() -> runInOrder(id, run));
        } else if (full[0]) {
            try {
                store.run(id, SyncRun.started(run.runId(), run.allowMassDelete()).ended(SyncRun.FAILED, "the source already had "
                        + MAX_QUEUED + " runs waiting: this one was not made; ask again when they have run"), null);
            } catch (RuntimeException e) {
                LOG.warnf("the refused run %s of source %s could not be recorded: %s", run.runId(), id, e.getMessage());
            }
        }
    }

    private void runInOrder(String id, Queued first) {
        Queued next = first;
        while (next != null) {
            runOne(id, next);
            Queued[] taken = {null};
            // atomically: the next run waiting (make it), or this source is no longer running here
            running.compute(id, (key, waiting) -> {
                taken[0] = waiting == null || shuttingDown ? null : waiting.poll();
                return taken[0] == null ? null : waiting;
            });
            next = taken[0];
        }
    }

    /** One run, which ends with a state whatever happens: no error of any kind leaves it "running" (or "queued"). */
    private void runOne(String id, Queued queued) {
        try {
            store.get(id).ifPresent(source -> sync(source, queued.runId(), queued.allowMassDelete()));
        } catch (Throwable e) { // an Error too (OutOfMemoryError, StackOverflowError): the run ends, the next one starts
            LOG.warnf(e, "sync of source %s failed", id);
            recordFailed(id, SyncRun.started(queued.runId(), queued.allowMassDelete()), e);
        }
    }

    private void recordFailed(String id, SyncRun run, Throwable e) {
        try {
            store.run(id, run.ended(SyncRun.FAILED, "stopped: " + describe(e)
                    + " (what was published is kept; the next run starts as usual)"), null);
        } catch (Throwable unrecorded) {
            LOG.warnf("the failed run of source %s could not be recorded either: %s", id, unrecorded.getMessage());
        }
    }

    private static String describe(Throwable e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    /** A source's files now (and, for git, the commit and the open clone they are read from). */
    private record Scanned(List<SourceFile> files, String commit, GitScanner.Head head) implements AutoCloseable {

        /**
         * The source fields of these files' last changes in a git source ({@code commit}, {@code modified}, {@code author};
         * one walk of the history for them all), by path; none for a folder.
         */
        Map<String, Map<String, Object>> lastChanges(List<SourceFile> published) {
            return head == null ? Map.of() : head.lastChanges(published.stream().map(SourceFile::path).toList());
        }

        @Override
        public void close() {
            if (head != null) {
                head.close();
            }
        }
    }

    private final Map<String, Object> fetchLocks = new ConcurrentHashMap<>();

    private Scanned scan(SourceStore.Stored source) {
        SourceRequest request = source.request();
        PathFilter filter = new PathFilter(request.includeOrNone(), request.excludeOrNone());
        if (SourceRequest.GIT.equals(request.type())) {
            if (!request.location().contains("://")) {
                Path repository = Path.of(request.location());
                roots.refusal(SourceRoots.real(repository), request.location()).ifPresent(refusal -> {
                    throw new SourceException(refusal.reason() + ": this source no longer runs, nothing was changed");
                });
                roots.gitRefusal(repository).ifPresent(outside -> {
                    throw new SourceException(outside);
                });
            }
            synchronized (fetchLocks.computeIfAbsent(source.id(), key -> new Object())) { // one fetch of a clone at a time
                GitScanner.Head head = GitScanner.read(gitLocation(request.location()), request.branch(), clone(source.id()), filter,
                        settings.maxFiles(), settings.maxFileBytes(), new GitScanner.Bounds(settings.maxCloneBytes(),
                                (int) settings.gitTimeout().toSeconds(), settings.gitHistoryDepth()));
                return new Scanned(described(source, head.files()), head.commit(), head);
            }
        }
        SourceReader.Root root = roots.atRun(Path.of(request.location()));
        return new Scanned(described(source, FolderScanner.scan(root, filter, roots.never(), settings.maxFiles(), settings.maxFileBytes())),
                null, null);
    }

    /**
     * Each readable file with the metadata its document carries: the source's own (the caller's), the path fields
     * ({@code path}, {@code fileName}, {@code extension}, {@code sourceId}) and what the scanner found (file system
     * times). A git file's last change ({@code commit}, {@code modified}, {@code author}) is not among them: it is
     * looked up only for the files a run publishes (their content or metadata changed), and it changes only with the
     * file's content, so a new commit alone changes no other file's metadata.
     */
    private static List<SourceFile> described(SourceStore.Stored source, List<SourceFile> files) {
        return files.stream().map(file -> {
            if (!file.readable()) {
                return file;
            }
            Map<String, Object> metadata = new java.util.LinkedHashMap<>(source.request().metadataOrNone());
            // a path past the source fields' length is clipped: refused, the file would be dead-lettered
            metadata.put("path", dev.openrag.ingest.source.SourceFields.clipped(file.path(),
                    dev.openrag.schemas.Metadata.MAX_SOURCE_VALUE_LENGTH));
            metadata.putAll(dev.openrag.ingest.source.SourceFields.file(file.path()));
            metadata.put("sourceId", source.id());
            metadata.putAll(file.metadata());
            return file.withMetadata(metadata);
        }).toList();
    }

    /**
     * What a run would do now, changing nothing (no document, no record): {@code state} is {@code dry-run}, or
     * {@code failed} with the reason, or {@code blocked} when the run would be.
     */
    public SyncRun dryRun(String id) {
        SourceStore.Stored source = store.get(id).orElseThrow(() -> ApiException.notFound("no source '" + id + "'"));
        SyncRun run = SyncRun.started(Ids.newEventId(), false);
        try (Scanned now = scan(source)) {
            Map<String, SourceStore.SyncedFile> synced = store.files(id);
            SyncPlan plan = SyncPlan.of(synced, now.files());
            List<SyncRun.Refused> refused = new ArrayList<>(plan.refused());
            int added = acceptable(plan.added(), refused); // files a run would refuse count as refused, as in the run
            int changed = acceptable(plan.changed(), refused);
            run = run.counted(added, changed, plan.deleted().size(), plan.unchanged(), refused, null, now.commit());
            return plan.massDelete(synced.size()) ? run.ended(SyncRun.BLOCKED, massDeleteReason(plan, synced.size()))
                    : run.ended(SyncRun.DRY_RUN, null);
        } catch (SourceException e) {
            return run.ended(SyncRun.FAILED, e.getMessage());
        } catch (ApiException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.warnf("dry run of source %s: %s", id, e.getMessage());
            throw new ApiException(503, "unavailable", "the source store (Neo4j) is unavailable: try again when it is back");
        }
    }

    /** How many of these files a run would publish; the others join {@code refused} with the reason. */
    private int acceptable(List<SourceFile> files, List<SyncRun.Refused> refused) {
        int count = 0;
        for (SourceFile file : files) {
            try {
                Uploads.Checked checked = uploads.check(file.path(), file.size(), () -> read(file).bytes());
                if (checked.rejection() == null) {
                    count++;
                } else {
                    refused.add(new SyncRun.Refused(file.path(), checked.rejection().reason()));
                }
            } catch (SourceReader.TooLargeException e) {
                refused.add(new SyncRun.Refused(file.path(), e.getMessage()));
            } catch (IOException e) {
                refused.add(new SyncRun.Refused(file.path(), "unreadable: " + e.getMessage()));
            }
        }
        return count;
    }

    /** A file's bytes, once, with their hash; no more than a file (and a document) may hold. */
    private SourceReader.Content read(SourceFile file) throws IOException {
        return maxDocumentBytes < settings.maxFileBytes() ? file.content().read(maxDocumentBytes, "openrag.ingest.max-document-bytes")
                : file.content().read(settings.maxFileBytes(), FolderScanner.MAX_FILE_BYTES);
    }

    private static String massDeleteReason(SyncPlan plan, int documents) {
        return "this run would delete " + plan.gone() + " of the source's " + documents + " documents (more than half; "
                + "an unmounted or emptied folder looks like this): nothing was changed. If the files are really "
                + "gone, run again with --allow-mass-delete (REST: allowMassDelete=true)";
    }

    /** One run: read, compare, publish, delete, wait for the job. */
    void sync(SourceStore.Stored source, String runId, boolean allowMassDelete) {
        String id = source.id();
        SourceRequest request = source.request();
        SyncRun run = SyncRun.started(runId, allowMassDelete);
        store.run(id, run, null);
        try (Scanned now = scan(source)) {
            List<SourceFile> files = now.files();
            String commit = now.commit();
            Map<String, SourceStore.SyncedFile> synced = store.files(id);
            SyncPlan plan = SyncPlan.of(synced, files);
            if (plan.massDelete(synced.size()) && !allowMassDelete) {
                store.run(id, run.counted(0, 0, 0, plan.unchanged(), plan.refused(), null, null).ended(SyncRun.BLOCKED,
                        massDeleteReason(plan, synced.size())), null);
                return;
            }
            String jobId = plan.changesNothing() ? null : DocumentPublisher.newJobId();
            if (jobId != null) {
                lastJobs.put(id, jobId);
            }
            List<SyncRun.Refused> refused = new ArrayList<>(plan.refused());
            Map<String, String> pathsByDocument = new HashMap<>();
            List<String> superseded = new ArrayList<>();
            Map<String, Map<String, Object>> lastChanges = now.lastChanges(
                    java.util.stream.Stream.concat(plan.added().stream(), plan.changed().stream()).toList());
            int published = publish(source, synced, jobId, plan.added(), lastChanges, refused, pathsByDocument, superseded);
            int republished = publish(source, synced, jobId, plan.changed(), lastChanges, refused, pathsByDocument, superseded);
            stopIfDeleted(id);
            List<String> deletedIds = new ArrayList<>(plan.deleted().stream().map(SourceStore.SyncedFile::documentId).toList());
            deletedIds.addAll(superseded);
            if (!deletedIds.isEmpty()) {
                jobs.deleting(jobId, request.collection(), deletedIds);
                deletedIds.forEach(documentId -> deleteDocument(jobId, request.collection(), documentId));
                store.forgotten(id, plan.deleted().stream().map(SourceStore.SyncedFile::path).toList());
            }
            run = run.counted(published, republished, plan.deleted().size(), plan.unchanged(), refused,
                    published + republished + plan.deleted().size() == 0 ? null : jobId, commit);
            store.run(id, run, commit);
            LOG.infof("sync source=%s added=%d changed=%d deleted=%d unchanged=%d refused=%d", id, run.added(), run.changed(),
                    run.deleted(), run.unchanged(), refused.size());
            if (run.jobId() != null) {
                run = awaitJob(id, run, pathsByDocument);
            }
            store.run(id, run.ended(SyncRun.COMPLETED, null), commit);
        } catch (SourceException | ApiException e) {
            LOG.warnf("sync of source %s failed: %s", id, e.getMessage());
            store.run(id, run.ended(SyncRun.FAILED, e.getMessage()), null);
        } catch (IOException e) {
            store.run(id, run.ended(SyncRun.FAILED, "the source could not be read: " + e.getMessage()), null);
        } catch (Throwable e) { // an engine away (Kafka, Neo4j), or an Error: what was published is recorded, the next run goes on
            LOG.warnf(e, "sync of source %s stopped", id);
            recordFailed(id, run, e);
        }
    }

    /** Stops a run whose source is being deleted (here) or was deleted (through another instance). */
    private void stopIfDeleted(String id) {
        if (stopping.contains(id) || store.get(id).isEmpty()) {
            throw new SourceException("the source was deleted during this run: it stopped");
        }
    }

    /** Publishes files as documents, in batches of at most 32 MB, recording each batch as synced once it is out; returns how many. */
    private int publish(SourceStore.Stored source, Map<String, SourceStore.SyncedFile> synced, String jobId, List<SourceFile> files,
                        Map<String, Map<String, Object>> lastChanges, List<SyncRun.Refused> refused, Map<String, String> pathsByDocument, List<String> superseded) throws IOException {
        String collection = source.request().collection();
        int count = 0;
        List<DocumentArrived> batch = new ArrayList<>();
        List<SourceStore.SyncedFile> recorded = new ArrayList<>();
        long bytes = 0;
        for (SourceFile file : files) {
            if (stopping.contains(source.id())) { // the source is being deleted: publish no more (what went out is recorded)
                throw new SourceException("the source was deleted during this run: it stopped");
            }
            String documentId = documentId(source.request(), file.path());
            String uri = source.request().location() + "/" + file.path();
            SourceReader.Content[] content = {null};
            Uploads.FileRead read;
            try {
                // past the document limit a file is refused on its size, unread; else the bytes published are the bytes hashed
                content[0] = file.size() > maxDocumentBytes ? null : read(file);
                read = uploads.read(file.path(), content[0] == null ? file.size() : content[0].bytes().length, () -> content[0].bytes(),
                        detected -> new DocumentArrived(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), documentId, jobId,
                                collection, new Source(source.request().type(), uri), null, detected.mediaType(), detected.base64(),
                                DocumentArrived.BASE64, null, withCommit(file.metadata(), lastChanges.getOrDefault(file.path(), Map.of()))));
            } catch (SourceReader.TooLargeException e) {
                refused.add(new SyncRun.Refused(file.path(), e.getMessage()));
                continue;
            } catch (IOException e) {
                refused.add(new SyncRun.Refused(file.path(), "unreadable: " + e.getMessage()));
                continue;
            }
            if (read.document() == null) {
                refused.add(new SyncRun.Refused(file.path(), read.rejection().reason()));
                continue;
            }
            batch.add(read.document());
            SourceStore.SyncedFile before = synced.get(file.path());
            if (before != null && !before.documentId().equals(documentId)) {
                superseded.add(before.documentId()); // synced under an id of an older scheme: that document goes in this job
            }
            recorded.add(new SourceStore.SyncedFile(file.path(), content[0].hash(), documentId, file.metadataHash()));
            pathsByDocument.put(documentId, file.path());
            bytes += content[0].bytes().length;
            count++;
            if (bytes >= PUBLISH_BATCH_BYTES) {
                flush(source, jobId, batch, recorded);
                bytes = 0;
            }
        }
        flush(source, jobId, batch, recorded);
        return count;
    }

    /** A file's metadata with its last change's fields (in a git source that commit's time is the file's {@code modified}). */
    private static Map<String, Object> withCommit(Map<String, Object> metadata, Map<String, Object> commitFields) {
        Map<String, Object> all = new java.util.LinkedHashMap<>(metadata);
        all.putAll(commitFields);
        return all;
    }

    private void flush(SourceStore.Stored source, String jobId, List<DocumentArrived> batch, List<SourceStore.SyncedFile> recorded) {
        if (!batch.isEmpty()) {
            publisher.publish(jobId, source.request().collection(), List.copyOf(batch), List.of());
            store.synced(source.id(), List.copyOf(recorded));
            batch.clear();
            recorded.clear();
        }
    }

    private void deleteDocument(String jobId, String collection, String documentId) {
        runner.emit(deletions, publisher.deletion(jobId, collection, documentId));
    }

    /** Waits for the run's job; the documents it failed join the run's refused files, under their paths. */
    private SyncRun awaitJob(String id, SyncRun run, Map<String, String> pathsByDocument) {
        JobStatus status = null;
        while (!shuttingDown && !stopping.contains(id)) {
            status = jobs.status(run.jobId()).orElse(null);
            if (status != null && status.finished()) {
                break;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (status == null || status.failures().isEmpty()) {
            return run;
        }
        List<SyncRun.Refused> refused = new ArrayList<>(run.refused());
        status.failures().forEach(failure -> refused.add(new SyncRun.Refused(
                pathsByDocument.getOrDefault(failure.documentId(), failure.documentId()), failure.stage() + ": " + failure.reason())));
        return run.counted(run.added(), run.changed(), run.deleted(), run.unchanged(), refused, run.jobId(), run.commit());
    }

    /**
     * A document's id: fixed by (collection, source type, location, path), so two collections of one folder never share
     * one, and a folder synced again after its source was deleted (its documents kept) replaces its documents.
     */
    static String documentId(SourceRequest source, String path) {
        return Ids.documentIdFromUri("sync://" + source.type() + "/" + source.collection() + "/"
                + URLEncoder.encode(source.location(), StandardCharsets.UTF_8) + "/" + path);
    }

    private SourceRequest validated(SourceRequest request) {
        if (request == null) {
            throw ApiException.badRequest("missing JSON body {type, location, collection, include, exclude, branch, schedule, watch, metadata}");
        }
        String type = request.type() == null ? "" : request.type().strip();
        if (!SourceRequest.FOLDER.equals(type) && !SourceRequest.GIT.equals(type)) {
            throw ApiException.badRequest("field 'type' must be 'folder' or 'git', got '" + request.type() + "'");
        }
        if (request.location() == null || request.location().isBlank()) {
            throw ApiException.badRequest("field 'location' is required: a folder's absolute path, or a git repository's https URL or path");
        }
        String collection = Collections.require(request.collection());
        new PathFilter(request.includeOrNone(), request.excludeOrNone()); // 400 for a bad glob
        if (request.watching() && !SourceRequest.FOLDER.equals(type)) {
            throw ApiException.badRequest("field 'watch' applies to folder sources only; a git source syncs on a 'schedule'");
        }
        if (request.branch() != null && !request.branch().isBlank() && !SourceRequest.GIT.equals(type)) {
            throw ApiException.badRequest("field 'branch' applies to git sources only");
        }
        Map<String, Object> metadata;
        try {
            metadata = dev.openrag.schemas.Metadata.toJson(dev.openrag.schemas.Metadata.fromCaller(request.metadataOrNone()));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("field 'metadata': " + e.getMessage());
        }
        String location = request.location().strip();
        if (SourceRequest.GIT.equals(type) && location.contains("://")) {
            location = checkedUrl(location);
        } else {
            Path folder = roots.allowedAtSave(location);
            if (SourceRequest.GIT.equals(type) && !GitScanner.isRepository(folder.toFile())) {
                throw ApiException.badRequest("'" + location + "' is not a git repository");
            }
            if (SourceRequest.GIT.equals(type)) {
                roots.gitRefusal(folder).ifPresent(outside -> {
                    throw new ApiException(403, "forbidden", outside);
                });
            }
            location = folder.toString();
        }
        return new SourceRequest(type, location, collection, request.includeOrNone(), request.excludeOrNone(),
                request.branch() == null || request.branch().isBlank() ? null : request.branch().strip(),
                request.scheduled() ? request.schedule().strip() : null, request.watching(), metadata.isEmpty() ? null : metadata);
    }

    /** An https URL the fetch rules allow (its host resolved and checked now; each connection is checked again). */
    private String checkedUrl(String location) {
        URI uri;
        try {
            uri = URI.create(location);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("'" + location + "' is not a valid URL");
        }
        if (!"https".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw ApiException.badRequest("a git repository URL must be https://HOST/...; got '" + location + "'");
        }
        if (uri.getUserInfo() != null) {
            throw ApiException.badRequest("a git repository URL must not hold credentials");
        }
        try {
            fetcher.policy().check(uri);
        } catch (AddressPolicy.RefusedException e) {
            throw ApiException.badRequest(e.unresolved() ? "repository '" + location + "' is unreachable: " + e.getMessage()
                    : "repository '" + location + "' is refused by the fetch rules: " + e.getMessage());
        }
        return uri.toString();
    }

    private void checkSchedule(String schedule) {
        String probe = "sync-schedule-check-" + Ids.newEventId();
        try {
            var job = scheduler.newJob(probe).setTask(execution -> { });
            (schedule.contains(" ") ? job.setCron(schedule) : job.setInterval(schedule)).schedule();
        } catch (RuntimeException e) {
            throw ApiException.badRequest("invalid 'schedule' '" + schedule + "': use an interval such as 30m or 1h, "
                    + "or a cron expression such as '0 0 3 * * ?' (" + e.getMessage() + ")");
        } finally {
            scheduler.unscheduleJob(probe);
        }
    }

    private String gitLocation(String location) {
        if (location.contains("://")) {
            routeGitThroughProxy();
        }
        return location;
    }

    private synchronized void routeGitThroughProxy() {
        if (gitProxy == null) {
            gitProxy = new PolicyProxy(fetcher.policy());
            GitScanner.routeThrough(gitProxy.socketAddress());
        }
    }

    private Path clone(String id) {
        return Path.of(settings.dir()).toAbsolutePath().resolve("git").resolve(id + ".git");
    }

    private static String jobName(String id) {
        return "sync-" + id;
    }

    private SourceView view(SourceStore.Stored source) {
        SourceRequest request = source.request();
        return new SourceView(source.id(), request.type(), request.location(), request.collection(), request.includeOrNone(),
                request.excludeOrNone(), request.branch(), request.schedule(), request.watching(), source.documents(),
                source.lastCommit(), source.createdAt(), source.lastRun(), request.metadata());
    }
}
