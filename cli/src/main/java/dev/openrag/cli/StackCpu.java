package dev.openrag.cli;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import dev.openrag.localstack.ComponentSpec;

/**
 * CPU time used by each process of the running stack (with its child processes), as the OS
 * accounts it: two samples around a piece of work say where its CPU went.
 */
final class StackCpu {

    private StackCpu() {
    }

    /** CPU milliseconds used so far by each running component, by name. */
    static Map<String, Long> sample(Stack stack) {
        Map<String, Long> millis = new LinkedHashMap<>();
        for (ComponentSpec spec : stack.allSpecs()) {
            stack.engines.supervisor().runningProcess(spec.name()).ifPresent(process -> millis.put(spec.name(),
                    Stream.concat(Stream.of(process), process.descendants())
                            .mapToLong(handle -> handle.info().totalCpuDuration().map(Duration::toMillis).orElse(0L)).sum()));
        }
        return millis;
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
