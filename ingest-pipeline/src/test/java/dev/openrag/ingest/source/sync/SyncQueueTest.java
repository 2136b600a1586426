package dev.openrag.ingest.source.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.ingest.stage.parse.DocumentParser;
import dev.openrag.knowledge.runtime.ApiException;
import io.quarkus.scheduler.Scheduler;

/**
 * Runs asked for together while a run of the source runs: at most {@code 16} wait (the others get 429 at once, however
 * many ask at the same moment), and every run id answered ends with a state. The source store is a map here (each
 * record of a queued run takes a while, as a write to Neo4j does, which is when requests made together overtake each
 * other); no engine.
 */
class SyncQueueTest {

    private static final int MAX_QUEUED = 16;

    @TempDir
    Path temp;

    @Test
    void runsAskedForTogetherDuringARunAreBoundedAndEachAnsweredIdEnds() throws Exception {
        Path folder = Files.createDirectories(temp.resolve("allowed/docs")).toRealPath();
        FakeStore store = new FakeStore(new SourceStore.Stored("s1", new SourceRequest(SourceRequest.FOLDER, folder.toString(),
                "queue", List.of(), List.of(), null, null, false), null, null, Instant.now(), 0));
        SyncService sync = service(store, folder.getParent());

        String first = sync.run("s1", false); // it runs, and holds on while the others ask
        assertThat(store.firstRunning.await(10, TimeUnit.SECONDS)).isTrue();

        int asking = 40;
        CyclicBarrier together = new CyclicBarrier(asking);
        ExecutorService callers = Executors.newFixedThreadPool(asking);
        List<Future<String>> answers = new ArrayList<>();
        for (int i = 0; i < asking; i++) {
            answers.add(callers.submit(() -> {
                together.await();
                try {
                    return sync.run("s1", false);
                } catch (ApiException e) {
                    assertThat(e.status()).isEqualTo(429);
                    return null;
                }
            }));
        }
        List<String> accepted = new ArrayList<>();
        for (Future<String> answer : answers) {
            String runId = answer.get(30, TimeUnit.SECONDS);
            if (runId != null) {
                accepted.add(runId);
            }
        }
        callers.shutdown();
        assertThat(accepted).as("runs waiting behind the one running").hasSizeLessThanOrEqualTo(MAX_QUEUED).isNotEmpty();

        store.release.countDown();
        accepted.add(first);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline && !accepted.stream().allMatch(store::ended)) {
            Thread.sleep(50);
        }
        assertThat(accepted).as("every answered run id ends with a state").allMatch(store::ended);
        assertThat(accepted.stream().map(store.runs::get).map(SyncRun::state)).containsOnly(SyncRun.COMPLETED);
    }

    private SyncService service(FakeStore store, Path allowed) {
        SourceSettings settings = new SourceSettings() {
            @Override
            public Optional<List<String>> allowedRoots() {
                return Optional.of(List.of(allowed.toString()));
            }

            @Override
            public String dir() {
                return temp.resolve("data/sources").toString();
            }

            @Override
            public int maxFiles() {
                return 100;
            }

            @Override
            public long maxFileBytes() {
                return 1024 * 1024;
            }

            @Override
            public long maxCloneBytes() {
                return 1024 * 1024;
            }

            @Override
            public int gitHistoryDepth() {
                return 500;
            }

            @Override
            public Duration lease() {
                return Duration.ofSeconds(30);
            }

            @Override
            public String leaseRenewal() {
                return "10s";
            }

            @Override
            public Duration watchDebounce() {
                return Duration.ofSeconds(1);
            }

            @Override
            public Duration gitTimeout() {
                return Duration.ofMinutes(1);
            }
        };
        Scheduler scheduler = (Scheduler) Proxy.newProxyInstance(Scheduler.class.getClassLoader(), new Class<?>[] {Scheduler.class},
                (proxy, method, args) -> method.getReturnType() == boolean.class ? false : null);
        return new SyncService(store, settings, null, null, null, null, null, scheduler, null,
                new SourceRoots(settings, temp.resolve("data/secrets.key").toString()), new DocumentParser(1024 * 1024));
    }

    /** One source in memory; its first run holds on until released, and a queued run takes a while to record. */
    private static final class FakeStore extends SourceStore {
        final Map<String, SyncRun> runs = new ConcurrentHashMap<>();
        final CountDownLatch firstRunning = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private final Stored source;

        FakeStore(Stored source) {
            super(null, Duration.ofSeconds(30), new ObjectMapper());
            this.source = source;
        }

        boolean ended(String runId) {
            SyncRun run = runs.get(runId);
            return run != null && run.over();
        }

        @Override
        public Optional<Stored> get(String id) {
            return Optional.of(source).filter(stored -> stored.id().equals(id));
        }

        @Override
        public void run(String id, SyncRun run, String commit) {
            runs.put(run.runId(), run);
            try {
                if (SyncRun.QUEUED.equals(run.state())) {
                    Thread.sleep(100); // a write to the store takes a while
                } else if (SyncRun.RUNNING.equals(run.state()) && firstRunning.getCount() > 0) {
                    firstRunning.countDown();
                    release.await(30, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public boolean claim(String id, String owner) {
            return true;
        }

        @Override
        public Map<String, SyncedFile> files(String id) {
            return Map.of();
        }

        @Override
        public void synced(String id, List<SyncedFile> files) {
        }

        @Override
        public void forgotten(String id, List<String> paths) {
        }

        @Override
        public void release(String owner) {
        }
    }
}
