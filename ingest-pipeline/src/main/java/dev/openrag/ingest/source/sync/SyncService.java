package dev.openrag.ingest.source.sync;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
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

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.jboss.logging.Logger;

import dev.openrag.ingest.job.JobStatus;
import dev.openrag.ingest.job.JobTracker;
import dev.openrag.ingest.source.Collections;
import dev.openrag.ingest.source.DocumentPublisher;
import dev.openrag.ingest.source.Uploads;
import dev.openrag.ingest.source.crawl.PolicyProxy;
import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.knowledge.fetch.AddressPolicy;
import dev.openrag.knowledge.fetch.SafeFetcher;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.DocumentDeleted;
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
    private final List<Path> forbidden;
    private final String instance = Ids.newEventId();
    private final ExecutorService runs = Executors.newCachedThreadPool(Thread.ofPlatform().name("sync-", 0).daemon().factory());
    /** Sources with a run here now → whether another was asked for meanwhile (run once more after it). */
    private final Map<String, Boolean> running = new ConcurrentHashMap<>();
    /** Sources this instance keeps (watch or schedule) → their watch, if any; and the request each was kept with. */
    private final Map<String, Optional<FolderWatch>> kept = new ConcurrentHashMap<>();
    private final Map<String, SourceRequest> keptAs = new ConcurrentHashMap<>();
    private volatile PolicyProxy gitProxy;
    private volatile boolean shuttingDown;

    public SyncService(SourceStore store, SourceSettings settings, Uploads uploads, DocumentPublisher publisher, StageRunner runner,
                       @Channel("deleted-out") MutinyEmitter<String> deletions, JobTracker jobs, Scheduler scheduler,
                       SafeFetcher fetcher, @ConfigProperty(name = "openrag.secrets.key-file") String keyFile) {
        this.store = store;
        this.settings = settings;
        this.uploads = uploads;
        this.publisher = publisher;
        this.runner = runner;
        this.deletions = deletions;
        this.jobs = jobs;
        this.scheduler = scheduler;
        this.fetcher = fetcher;
        Path dataFolder = Path.of(keyFile).toAbsolutePath().normalize().getParent();
        List<Path> never = new ArrayList<>(List.of(Path.of(settings.dir()).toAbsolutePath().normalize()));
        if (dataFolder != null) {
            never.add(dataFolder);
        }
        this.forbidden = List.copyOf(never);
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

    /** Runs a source now (here, or through its owner); returns the run's id. */
    public String run(String id, boolean allowMassDelete) {
        SourceStore.Stored source = store.get(id).orElseThrow(() -> ApiException.notFound("no source '" + id + "'"));
        String runId = Ids.newEventId();
        if (store.claim(id, instance)) {
            keepIfChanged(source);
            start(id, runId, allowMassDelete);
        } else {
            store.requestRun(id, runId, allowMassDelete); // its owner makes it within a renewal
        }
        return runId;
    }

    /** Forgets a source here and everywhere; with {@code deleteDocuments}, its documents go from every store too. */
    public Optional<SourceView> delete(String id, boolean deleteDocuments) {
        Optional<SourceStore.Stored> source = store.get(id);
        source.ifPresent(stored -> {
            unkeep(id);
            if (deleteDocuments) {
                List<SourceStore.SyncedFile> files = List.copyOf(store.files(id).values());
                String jobId = DocumentPublisher.newJobId();
                jobs.deleting(jobId, stored.request().collection(), files.stream().map(SourceStore.SyncedFile::documentId).toList());
                files.forEach(file -> deleteDocument(jobId, stored.request().collection(), file.documentId()));
            }
            store.delete(id);
        });
        return source.map(this::view);
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
                start(request.id(), request.runId(), request.allowMassDelete());
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
                    () -> start(source.id(), Ids.newEventId(), false)));
        }
        if (request.scheduled()) {
            var job = scheduler.newJob(jobName(source.id())).setConcurrentExecution(Scheduled.ConcurrentExecution.SKIP)
                    .setTask(execution -> start(source.id(), Ids.newEventId(), false));
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

    /** Runs the source on a thread of its own; a run asked for while one runs makes one more run after it. */
    private void start(String id, String runId, boolean allowMassDelete) {
        if (shuttingDown) {
            return;
        }
        boolean[] first = {false};
        running.compute(id, (key, asked) -> {
            first[0] = asked == null;
            return !first[0]; // false: running, nothing more asked; true: run once more after this one
        });
        if (!first[0]) {
            return;
        }
        runs.submit(() -> {
            String next = runId;
            boolean again;
            do {
                String thisRun = next;
                try {
                    store.get(id).ifPresent(source -> sync(source, thisRun, allowMassDelete));
                } catch (RuntimeException e) {
                    LOG.warnf(e, "sync of source %s failed", id);
                }
                // atomically: another run was asked for meanwhile (make it), or this source is no longer running here
                again = running.compute(id, (key, asked) -> Boolean.TRUE.equals(asked) && !shuttingDown ? false : null) != null;
                next = Ids.newEventId();
            } while (again);
        });
    }

    /** A source's files now (and, for git, the commit and the open clone they are read from). */
    private record Scanned(List<SourceFile> files, String commit, GitScanner.Head head) implements AutoCloseable {
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
                outsideFolderRead(Path.of(request.location())).ifPresent(outside -> {
                    throw new SourceException(outside);
                });
            }
            synchronized (fetchLocks.computeIfAbsent(source.id(), key -> new Object())) { // one fetch of a clone at a time
                GitScanner.Head head = GitScanner.read(gitLocation(request.location()), request.branch(), clone(source.id()), filter,
                        settings.maxFiles(), (int) settings.gitTimeout().toSeconds());
                return new Scanned(head.files(), head.commit(), head);
            }
        }
        return new Scanned(FolderScanner.scan(Path.of(request.location()), filter, forbidden, settings.maxFiles()), null, null);
    }

    /**
     * What a run would do now, changing nothing (no document, no record): {@code state} is {@code dry-run}, or
     * {@code failed} with the reason, or {@code blocked} when the run would be.
     */
    public SyncRun dryRun(String id) {
        SourceStore.Stored source = store.get(id).orElseThrow(() -> ApiException.notFound("no source '" + id + "'"));
        SyncRun run = SyncRun.started(Ids.newEventId());
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
                Uploads.Checked checked = uploads.check(file.path(), file.size(), file.content()::read);
                if (checked.rejection() == null) {
                    count++;
                } else {
                    refused.add(new SyncRun.Refused(file.path(), checked.rejection().reason()));
                }
            } catch (IOException e) {
                refused.add(new SyncRun.Refused(file.path(), "unreadable: " + e.getMessage()));
            }
        }
        return count;
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
        SyncRun run = SyncRun.started(runId);
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
            List<SyncRun.Refused> refused = new ArrayList<>(plan.refused());
            Map<String, String> pathsByDocument = new HashMap<>();
            int published = publish(source, jobId, plan.added(), refused, pathsByDocument);
            int republished = publish(source, jobId, plan.changed(), refused, pathsByDocument);
            if (!plan.deleted().isEmpty()) {
                jobs.deleting(jobId, request.collection(), plan.deleted().stream().map(SourceStore.SyncedFile::documentId).toList());
                for (SourceStore.SyncedFile gone : plan.deleted()) {
                    deleteDocument(jobId, request.collection(), gone.documentId());
                }
                store.forgotten(id, plan.deleted().stream().map(SourceStore.SyncedFile::path).toList());
            }
            run = run.counted(published, republished, plan.deleted().size(), plan.unchanged(), refused,
                    published + republished + plan.deleted().size() == 0 ? null : jobId, commit);
            store.run(id, run, commit);
            LOG.infof("sync source=%s added=%d changed=%d deleted=%d unchanged=%d refused=%d", id, run.added(), run.changed(),
                    run.deleted(), run.unchanged(), refused.size());
            if (run.jobId() != null) {
                run = awaitJob(run, pathsByDocument);
            }
            store.run(id, run.ended(SyncRun.COMPLETED, null), commit);
        } catch (SourceException | ApiException e) {
            LOG.warnf("sync of source %s failed: %s", id, e.getMessage());
            store.run(id, run.ended(SyncRun.FAILED, e.getMessage()), null);
        } catch (IOException e) {
            store.run(id, run.ended(SyncRun.FAILED, "the source could not be read: " + e.getMessage()), null);
        } catch (RuntimeException e) { // an engine away (Kafka, Neo4j): what was published is recorded, the next run goes on
            LOG.warnf("sync of source %s stopped: %s", id, e.getMessage());
            try {
                store.run(id, run.ended(SyncRun.FAILED, "stopped: " + e.getMessage()
                        + " (what was published is kept; run again when the engines are back)"), null);
            } catch (RuntimeException unreachable) {
                LOG.warnf("the failed run of source %s could not be recorded either: %s", id, unreachable.getMessage());
            }
        }
    }

    /** Publishes files as documents, in batches of at most 32 MB, recording each batch as synced once it is out; returns how many. */
    private int publish(SourceStore.Stored source, String jobId, List<SourceFile> files, List<SyncRun.Refused> refused,
                          Map<String, String> pathsByDocument) throws IOException {
        String collection = source.request().collection();
        int count = 0;
        List<DocumentArrived> batch = new ArrayList<>();
        List<SourceStore.SyncedFile> recorded = new ArrayList<>();
        long bytes = 0;
        for (SourceFile file : files) {
            String documentId = documentId(source.id(), file.path());
            String uri = source.request().location() + "/" + file.path();
            Uploads.FileRead read;
            try {
                read = uploads.read(file.path(), file.size(), file.content()::read, detected -> new DocumentArrived(
                        EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), documentId, jobId, collection,
                        new Source(source.request().type(), uri), null, detected.mediaType(), detected.base64(),
                        DocumentArrived.BASE64, null, Map.of("fileName", file.path(), "sourceId", source.id())));
            } catch (IOException e) {
                refused.add(new SyncRun.Refused(file.path(), "unreadable: " + e.getMessage()));
                continue;
            }
            if (read.document() == null) {
                refused.add(new SyncRun.Refused(file.path(), read.rejection().reason()));
                continue;
            }
            batch.add(read.document());
            recorded.add(new SourceStore.SyncedFile(file.path(), file.hash(), documentId));
            pathsByDocument.put(documentId, file.path());
            bytes += file.size();
            count++;
            if (bytes >= PUBLISH_BATCH_BYTES) {
                flush(source, jobId, batch, recorded);
                bytes = 0;
            }
        }
        flush(source, jobId, batch, recorded);
        return count;
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
        runner.emit(deletions, new DocumentDeleted(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), documentId, jobId, collection));
    }

    /** Waits for the run's job; the documents it failed join the run's refused files, under their paths. */
    private SyncRun awaitJob(SyncRun run, Map<String, String> pathsByDocument) {
        JobStatus status = null;
        while (!shuttingDown) {
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

    /** A document's id: fixed by its source and path, so two sources of one folder (two collections) never share one. */
    static String documentId(String sourceId, String path) {
        return Ids.documentIdFromUri("sync://" + sourceId + "/" + path);
    }

    private SourceRequest validated(SourceRequest request) {
        if (request == null) {
            throw ApiException.badRequest("missing JSON body {type, location, collection, include, exclude, branch, schedule, watch}");
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
        String location = request.location().strip();
        if (SourceRequest.GIT.equals(type) && location.contains("://")) {
            location = checkedUrl(location);
        } else {
            Path folder = allowedFolder(location);
            if (SourceRequest.GIT.equals(type) && !GitScanner.isRepository(folder.toFile())) {
                throw ApiException.badRequest("'" + location + "' is not a git repository");
            }
            if (SourceRequest.GIT.equals(type)) {
                outsideFolderRead(folder).ifPresent(outside -> {
                    throw new ApiException(403, "forbidden", outside);
                });
            }
            location = folder.toString();
        }
        return new SourceRequest(type, location, collection, request.includeOrNone(), request.excludeOrNone(),
                request.branch() == null || request.branch().isBlank() ? null : request.branch().strip(),
                request.scheduled() ? request.schedule().strip() : null, request.watching());
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

    /**
     * Why a local repository may not be read, when JGit would read a folder of it outside the allowed roots or inside the
     * data folder (a {@code .git} file naming another repository, {@code objects/info/alternates}); checked when the
     * source is saved and again before each run, since the repository can change in between.
     */
    private Optional<String> outsideFolderRead(Path repository) {
        List<Path> read;
        try {
            read = GitScanner.foldersRead(repository);
        } catch (IOException | RuntimeException e) {
            return Optional.of("repository '" + repository + "' could not be opened: " + e.getMessage());
        }
        List<Path> roots = allowedRoots();
        List<Path> never = forbidden.stream().map(SyncService::real).toList();
        for (Path folder : read) {
            Path real = real(folder);
            if (roots.stream().noneMatch(real::startsWith) || never.stream().anyMatch(real::startsWith)) {
                return Optional.of("repository '" + repository + "' reads '" + folder + "', outside the folders this server "
                        + "may sync (openrag.sources.allowed-roots): a .git file or objects/info/alternates points there");
            }
        }
        return Optional.empty();
    }

    private List<Path> allowedRoots() {
        return settings.allowedRoots().orElse(List.of()).stream().filter(root -> !root.isBlank())
                .map(root -> real(Path.of(root.strip()))).toList();
    }

    /** A folder that exists under an allowed root and outside the server's data folder, as its real path. */
    private Path allowedFolder(String location) {
        Path given;
        try {
            given = Path.of(location);
        } catch (InvalidPathException e) {
            throw ApiException.badRequest("'" + location + "' is not a valid path");
        }
        if (!given.isAbsolute()) {
            throw ApiException.badRequest("field 'location' must be an absolute path, got '" + location + "'");
        }
        List<Path> roots = allowedRoots();
        if (roots.isEmpty()) {
            throw new ApiException(403, "forbidden", "this server syncs no folders: its operator has not set openrag.sources.allowed-roots "
                    + "(env OPENRAG_SOURCES_ALLOWED_ROOTS)");
        }
        if (!Files.exists(given)) {
            throw ApiException.badRequest("folder '" + location + "' does not exist");
        }
        Path folder = real(given);
        if (!Files.isDirectory(folder)) {
            throw ApiException.badRequest("'" + location + "' is not a folder");
        }
        if (roots.stream().noneMatch(folder::startsWith)) {
            throw new ApiException(403, "forbidden", "folder '" + location + "' is outside the folders this server may sync "
                    + "(openrag.sources.allowed-roots)");
        }
        if (forbidden.stream().map(SyncService::real).anyMatch(folder::startsWith)) {
            throw new ApiException(403, "forbidden", "folder '" + location + "' lies in the server's data folder, which is never synced");
        }
        return folder;
    }

    private static Path real(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
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
                source.lastCommit(), source.createdAt(), source.lastRun());
    }
}
