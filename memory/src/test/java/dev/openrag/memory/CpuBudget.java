package dev.openrag.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;

/**
 * Asserts that reading a hostile text costs little CPU: the work's own thread's CPU time, not the wall clock, so that
 * a busy machine (the suite beside other builds) does not fail it while backtracking or copying still would. A hang
 * is cut off after {@code 30 ×} the budget of wall time.
 */
public final class CpuBudget {

    private CpuBudget() {
    }

    public static void assertWithin(Duration budget, Runnable work) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long used = assertTimeoutPreemptively(budget.multipliedBy(30), () -> {
            long before = threads.getCurrentThreadCpuTime();
            work.run();
            return threads.getCurrentThreadCpuTime() - before;
        });
        assertThat(Duration.ofNanos(used)).as("CPU time of the work").isLessThan(budget);
    }
}
