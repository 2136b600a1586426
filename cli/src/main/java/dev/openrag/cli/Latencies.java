package dev.openrag.cli;

import java.util.Arrays;
import java.util.Locale;

/** Latency samples in milliseconds and their percentiles (nearest rank). */
final class Latencies {

    private double[] samples = new double[64];
    private int size;

    void add(long startedNanos) {
        addMillis((System.nanoTime() - startedNanos) / 1e6);
    }

    void addMillis(double millis) {
        if (size == samples.length) {
            samples = Arrays.copyOf(samples, size * 2);
        }
        samples[size++] = millis;
    }

    double percentile(double p) {
        double[] sorted = Arrays.copyOf(samples, size);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * size);
        return sorted[Math.max(0, Math.min(size - 1, rank - 1))];
    }

    int count() {
        return size;
    }

    String summary() {
        return String.format(Locale.ROOT, "p50=%.1fms p95=%.1fms p99=%.1fms n=%d", percentile(50), percentile(95), percentile(99), size);
    }
}
