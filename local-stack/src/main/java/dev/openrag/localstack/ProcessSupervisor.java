package dev.openrag.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts, watches and stops components as OS processes. State lives in files under
 * {@code home}: {@code run/NAME.pid} (removed only by a clean stop, so a pid file whose process
 * is gone means the component failed) and {@code logs/NAME.log}.
 */
public final class ProcessSupervisor {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessSupervisor.class);
    private static final int LOG_TAIL_LINES = 20;

    private final Path runDir;
    private final Path logDir;
    private final boolean detached;
    private final Long watchPid;

    /**
     * @param detached true for {@code openrag up}: processes outlive this JVM in their own session;
     *                 false for tests: processes die with this JVM (see {@link EngineMain})
     */
    public ProcessSupervisor(Path home, boolean detached) {
        this.runDir = home.resolve("run");
        this.logDir = home.resolve("logs");
        this.detached = detached;
        this.watchPid = detached ? null : ProcessHandle.current().pid();
        try {
            Files.createDirectories(runDir);
            Files.createDirectories(logDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + runDir, e);
        }
    }

    public Path logFile(String name) {
        return logDir.resolve(name + ".log");
    }

    /**
     * Starts the component unless it already runs, then waits until its health check passes.
     *
     * @return true when a process was started, false when one of ours was already running
     */
    public boolean start(ComponentSpec spec) {
        Optional<ProcessHandle> running = runningProcess(spec.name());
        if (running.isPresent()) {
            LOG.info("{} already running (pid {})", spec.name(), running.get().pid());
            awaitHealthy(spec, running.get(), LATEST_START);
            return false;
        }
        for (int port : spec.allPorts()) {
            if (Ports.inUse(port)) {
                throw new LocalStackException(spec.name() + " cannot start: port " + port
                        + " is already in use by another process (not one started by OpenRAG). "
                        + "Stop that process or configure another port for " + spec.name() + ".");
            }
        }
        Path log = logFile(spec.name());
        long start = size(log); // the log is appended to: a failure shows this start's lines, not an earlier run's
        try {
            Files.writeString(log, startLine(spec.name()) + Instant.now() + "\n", StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            spec.prepare().run(log);
        } catch (LocalStackException e) {
            throw e;
        } catch (Exception e) {
            throw new LocalStackException(spec.name() + " cannot be prepared: " + e.getMessage() + tailMessage(spec.name(), start), e);
        }
        ProcessHandle process = launch(spec, log);
        awaitHealthy(spec, process, start);
        return true;
    }

    /** The line each start writes first to the component's log; what follows the last one is that start's output. */
    private static String startLine(String name) {
        return "=== starting " + name + " at ";
    }

    private ProcessHandle launch(ComponentSpec spec, Path log) {
        List<String> command = new ArrayList<>();
        if (detached && Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            command.add("/usr/bin/setsid"); // own session: Ctrl-C in the terminal that ran `up` does not reach it
        }
        command.addAll(CpuPriority.commandPrefix(spec.niceness()));
        command.addAll(spec.command());
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().putAll(spec.env());
        JavaRuntime.keepNeutralSettingsLast(builder.environment());
        if (watchPid != null) {
            builder.environment().put(EngineMain.WATCH_PID_ENV, Long.toString(watchPid));
        }
        try {
            Process process = builder.start();
            Files.writeString(pidFile(spec.name()), Long.toString(process.pid()));
            LOG.info("{} started (pid {}), log {}", spec.name(), process.pid(), log);
            if (detached && CpuPriority.lowerOwnSessionGroup(process.pid(), spec.niceness())) {
                LOG.info("{} runs at CPU niceness {} (its session's group too)", spec.name(), spec.niceness());
            }
            return process.toHandle();
        } catch (IOException e) {
            throw new LocalStackException(spec.name() + " cannot be launched: " + e.getMessage(), e);
        }
    }

    private void awaitHealthy(ComponentSpec spec, ProcessHandle process, long start) {
        Instant deadline = Instant.now().plus(spec.startTimeout());
        String lastProblem = "no answer yet";
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new LocalStackException(spec.name() + " exited during start-up." + tailMessage(spec.name(), start));
            }
            try {
                if (spec.health().healthy()) {
                    return;
                }
            } catch (Exception e) {
                lastProblem = e.getMessage();
            }
            sleep(Duration.ofMillis(500));
        }
        throw new LocalStackException(spec.name() + " did not become healthy within " + spec.startTimeout().toSeconds()
                + " s (last probe: " + lastProblem + "); it is left running for inspection." + tailMessage(spec.name(), start));
    }

    /** Stops the component if one of ours runs: SIGTERM, then SIGKILL after the grace period. */
    public boolean stop(String name, Duration grace) {
        Optional<ProcessHandle> running = runningProcess(name);
        running.ifPresent(process -> {
            LOG.info("stopping {} (pid {})", name, process.pid());
            process.destroy();
            try {
                process.onExit().get(grace.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (Exception timeout) {
                LOG.warn("{} did not stop within {} s, killing it", name, grace.toSeconds());
                process.destroyForcibly();
                process.onExit().join();
            }
        });
        try {
            Files.deleteIfExists(pidFile(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return running.isPresent();
    }

    public ComponentStatus status(ComponentSpec spec) {
        Optional<Long> pid = recordedPid(spec.name());
        if (pid.isEmpty()) {
            return new ComponentStatus(spec.name(), ComponentStatus.State.STOPPED, null, spec.port(), List.of());
        }
        if (runningProcess(spec.name()).isEmpty()) {
            return new ComponentStatus(spec.name(), ComponentStatus.State.FAILED, pid.get(), spec.port(), logTail(spec.name()));
        }
        boolean healthy;
        try {
            healthy = spec.health().healthy();
        } catch (Exception e) {
            healthy = false;
        }
        return new ComponentStatus(spec.name(), healthy ? ComponentStatus.State.RUNNING : ComponentStatus.State.UNHEALTHY,
                pid.get(), spec.port(), healthy ? List.of() : logTail(spec.name()));
    }

    /** The process recorded in the pid file, if it is alive and really one of ours (pids get reused). */
    public Optional<ProcessHandle> runningProcess(String name) {
        return recordedPid(name)
                .flatMap(ProcessHandle::of)
                .filter(ProcessHandle::isAlive)
                .filter(process -> process.info().commandLine()
                        .map(line -> line.contains(ComponentSpec.marker(name)))
                        .orElse(false));
    }

    /** The last lines its latest start wrote to the component's log (for a status, seen from any JVM). */
    public List<String> logTail(String name) {
        return logTail(name, LATEST_START);
    }

    /** {@link #logTail(String, long)}'s "from": the latest start line in the log. */
    private static final long LATEST_START = -1;

    /** The last lines written to the component's log from byte {@code from} on (a start's own, see {@link LogTail}). */
    private List<String> logTail(String name, long from) {
        Path log = logFile(name);
        try {
            return from == LATEST_START ? LogTail.sinceLast(log, startLine(name), LOG_TAIL_LINES) : LogTail.since(log, from, LOG_TAIL_LINES);
        } catch (java.nio.file.NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            return List.of("(cannot read " + log + ": " + e.getMessage() + ")");
        }
    }

    private static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    private String tailMessage(String name, long from) {
        return "\nLast lines of " + logFile(name) + " since this start:\n  " + String.join("\n  ", logTail(name, from));
    }

    private Optional<Long> recordedPid(String name) {
        Path file = pidFile(name);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(Files.readString(file).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private Path pidFile(String name) {
        return runDir.resolve(name + ".pid");
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalStackException("interrupted while waiting", e);
        }
    }
}
