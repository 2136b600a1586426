package dev.openrag.localstack;

import java.time.Duration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * The real engines (Kafka in KRaft mode, Neo4j with Bolt, OpenSearch) as local processes.
 * Engines start in parallel; Kafka's topics are created once it is healthy.
 */
public final class LocalStack {

    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    private final StackConfig config;
    private final ProcessSupervisor supervisor;

    public LocalStack(StackConfig config, boolean detached) {
        this.config = config;
        this.supervisor = new ProcessSupervisor(config.home(), detached);
    }

    /**
     * Kafka ({@code log.dirs}), OpenSearch ({@code path.data}) and Log4j ({@code log4j2.configurationFile}) each read a
     * comma as a list separator: an engine under a folder whose path has one would keep its data or logs in two places,
     * or fail. Refused before anything starts, saying how to move the engines' folder.
     */
    static void requireNoComma(Path home) {
        String path = home.toAbsolutePath().normalize().toString();
        if (path.indexOf(',') >= 0) {
            throw new LocalStackException("the engines' folder " + path + " has a comma in its path, which Kafka, OpenSearch and "
                    + "Log4j read as a list separator: use a folder whose path has none (OPENRAG_HOME, or the project's own folder for its tests)");
        }
    }

    public StackConfig config() {
        return config;
    }

    public ProcessSupervisor supervisor() {
        return supervisor;
    }

    /** "kafka        ready on 127.0.0.1:9092 (12.3 s)", or "already running" without a time: the same digits in every locale. */
    static String progressLine(ComponentSpec spec, Duration took) {
        return String.format(Locale.ROOT, "%-12s %s on 127.0.0.1:%d%s", spec.name(), took == null ? "already running" : "ready",
                spec.port(), took == null ? "" : String.format(Locale.ROOT, " (%.1f s)", took.toMillis() / 1e3));
    }

    /**
     * Starts the given engines (those already running are kept) and waits until all are healthy.
     *
     * @param progress receives one line per engine as it becomes ready
     */
    public void start(Collection<Engine> engines, Consumer<String> progress) {
        requireNoComma(config.home());
        List<CompletableFuture<Void>> starts = new ArrayList<>();
        // one thread per engine: the common pool has a single worker on a 2-core machine
        var executor = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
        for (Engine engine : engines) {
            // the brokers (nodes) of one engine start together: a KRaft quorum or an OpenSearch cluster forms only then
            List<CompletableFuture<Void>> nodes = engine.specs(config).stream().map(spec -> CompletableFuture.runAsync(() -> {
                long began = System.nanoTime();
                boolean started = supervisor.start(spec);
                progress.accept(progressLine(spec, started ? Duration.ofNanos(System.nanoTime() - began) : null));
            }, executor)).toList();
            CompletableFuture<Void> all = CompletableFuture.allOf(nodes.toArray(CompletableFuture[]::new));
            starts.add(engine == Engine.KAFKA
                    ? all.thenRunAsync(() -> KafkaTopics.ensure(config.kafkaBootstrapServers(), config.kafkaBrokers()), executor)
                    : all);
        }
        try {
            CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof LocalStackException problem) {
                throw problem;
            }
            throw new LocalStackException("starting the engines failed: " + e.getCause(), e.getCause());
        } finally {
            executor.shutdown();
        }
    }

    /**
     * Stops the given engines, every process at once (one thread each, as {@link #start} does): stopped a few at a
     * time, the last broker of a KRaft cluster would wait its whole grace period for a quorum already gone.
     */
    public void stop(Collection<Engine> engines) {
        try (var executor = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            CompletableFuture.allOf(engines.stream().flatMap(engine -> engine.specs(config).stream())
                    .map(spec -> CompletableFuture.runAsync(() -> supervisor.stop(spec.name(), STOP_GRACE), executor))
                    .toArray(CompletableFuture[]::new)).join();
        }
    }

    /** The first (or only) process of an engine. */
    public ComponentStatus status(Engine engine) {
        return supervisor.status(engine.spec(config));
    }
}
