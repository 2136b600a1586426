package dev.openrag.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import dev.openrag.localstack.ComponentSpec;

/**
 * What {@code up} prints before starting: each process's maximum heap (its {@code -Xmx}) and the
 * total against this machine's memory, so a cluster profile that would not fit is seen first.
 */
final class MemoryPlan {

    private MemoryPlan() {
    }

    static String describe(List<ComponentSpec> specs) {
        Map<String, Long> heaps = new LinkedHashMap<>();
        long total = 0;
        for (ComponentSpec spec : specs) {
            long heap = maxHeapMiB(spec.command());
            heaps.put(spec.name(), heap);
            total += heap;
        }
        long machine = machineMiB();
        String each = heaps.entrySet().stream().map(entry -> entry.getKey() + " " + entry.getValue()).collect(Collectors.joining(", "));
        return String.format(Locale.ROOT, "memory: %d processes, max heap %.1f GiB (MiB each: %s)%s", specs.size(), total / 1024.0, each,
                machine > 0 ? String.format(Locale.ROOT, "; this machine has %.1f GiB; off-heap (page cache, Lucene, ONNX) comes on top", machine / 1024.0) : "");
    }

    /** The last {@code -Xmx} of a java command line in MiB (0 when it sets none). */
    static long maxHeapMiB(List<String> command) {
        long heap = 0;
        for (String argument : command) {
            if (argument.startsWith("-Xmx")) {
                String size = argument.substring(4).toLowerCase(java.util.Locale.ROOT);
                long number = Long.parseLong(size.replaceAll("[^0-9]", ""));
                heap = switch (size.charAt(size.length() - 1)) {
                    case 'g' -> number * 1024;
                    case 'm' -> number;
                    case 'k' -> number / 1024;
                    default -> number / (1024 * 1024);
                };
            }
        }
        return heap;
    }

    private static long machineMiB() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getTotalMemorySize() / (1024 * 1024) : 0;
    }
}
