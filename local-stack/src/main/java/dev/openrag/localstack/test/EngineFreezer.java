package dev.openrag.localstack.test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;

import dev.openrag.localstack.Engine;
import dev.openrag.localstack.StackConfig;

/**
 * Freezes a test stack's engine process the way a long GC pause or a stalled VM does: SIGSTOP (the
 * kernel still accepts its connections, nothing answers), then SIGCONT. For tests of what callers do
 * while an engine hangs rather than fails.
 */
public final class EngineFreezer implements AutoCloseable {

    private final long pid;

    private EngineFreezer(long pid) {
        this.pid = pid;
        signal("-STOP");
    }

    /** Freezes {@code engine} of the shared test stack until {@link #close()}. */
    public static EngineFreezer freeze(StackConfig config, Engine engine) {
        try {
            return new EngineFreezer(Long.parseLong(Files.readString(config.home().resolve("run").resolve(engine.componentName() + ".pid")).strip()));
        } catch (IOException e) {
            throw new IllegalStateException("no pid file for " + engine + " in " + config.home(), e);
        }
    }

    @Override
    public void close() {
        signal("-CONT");
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill " + signal + " " + pid + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException("kill " + signal + " " + pid + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling " + pid, e);
        }
    }
}
