package dev.openrag.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;

import dev.openrag.localstack.ComponentSpec;

/**
 * CPU time used by each process of the running stack (with its child processes), as the OS
 * accounts it: two samples around a piece of work say where its CPU went.
 */
final class StackCpu {

    /** Linux's clock ticks a second in /proc's times (USER_HZ, 100 on every kernel Java runs on). */
    private static final int TICKS_PER_SECOND = 100;

    private StackCpu() {
    }

    /** CPU milliseconds used so far by each running component, by name. */
    static Map<String, Long> sample(Stack stack) {
        Map<String, Long> millis = new LinkedHashMap<>();
        for (ComponentSpec spec : stack.allSpecs()) {
            stack.engines.supervisor().runningProcess(spec.name()).ifPresent(process -> millis.put(spec.name(),
                    withDescendants(process).mapToLong(handle -> handle.info().totalCpuDuration().map(Duration::toMillis).orElse(0L)).sum()));
        }
        return millis;
    }

    /**
     * CPU milliseconds used so far by the threads whose name passes the test, for each running
     * component by name (Linux's per-thread accounting in /proc; 0 where there is none). Threads
     * that ended are not counted, so it suits long-lived ones: the embedder's pool, JIT compilers.
     */
    static Map<String, Long> threadsByComponent(Stack stack, Predicate<String> name) {
        Map<String, Long> millis = new LinkedHashMap<>();
        for (ComponentSpec spec : stack.allSpecs()) {
            stack.engines.supervisor().runningProcess(spec.name()).ifPresent(process -> millis.put(spec.name(),
                    withDescendants(process).mapToLong(handle -> threadMillis(handle.pid(), name)).sum()));
        }
        return millis;
    }

    /** A component's process and its children (a launcher script's JVM, say). */
    private static Stream<ProcessHandle> withDescendants(ProcessHandle process) {
        return Stream.concat(Stream.of(process), process.descendants());
    }

    static long threadMillis(long pid, Predicate<String> name) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        if (!Files.isDirectory(tasks)) {
            return 0;
        }
        try (Stream<Path> threads = Files.list(tasks)) {
            return threads.mapToLong(thread -> {
                try {
                    if (!name.test(Files.readString(thread.resolve("comm")).strip())) {
                        return 0;
                    }
                    String stat = Files.readString(thread.resolve("stat"));
                    // fields after the parenthesised name: state is the 3rd, utime the 14th and stime the 15th
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 1000 / TICKS_PER_SECOND;
                } catch (IOException | RuntimeException ended) {
                    return 0; // the thread ended between listing and reading
                }
            }).sum();
        } catch (IOException ended) {
            return 0;
        }
    }

    /** CPU milliseconds of this JVM so far. */
    static long self() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis).orElse(0L);
    }

    /** What each component used between two samples (components missing from either are left out). */
    static Map<String, Long> between(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> used = new LinkedHashMap<>();
        after.forEach((name, millis) -> {
            if (before.containsKey(name)) {
                used.put(name, millis - before.get(name));
            }
        });
        return used;
    }
}
