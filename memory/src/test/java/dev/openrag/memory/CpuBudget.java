package dev.openrag.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;

/**
 * Asserts that reading a hostile text costs little CPU: the work's own thread's CPU time, not the wall clock, so that
 * a busy machine (the suite beside other builds) does not fail it while backtracking or copying still would. A hang
 * is cut off after {@code 10 ×} the budget of wall time. Where the JVM cannot measure a thread's CPU time, the test is
 * skipped, not passed.
 */
public final class CpuBudget {

    private CpuBudget() {
    }

    public static void assertWithin(Duration budget, Runnable work) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled(), "thread CPU time is not measured here");
        long used = assertTimeoutPreemptively(budget.multipliedBy(10), () -> {
            long before = threads.getCurrentThreadCpuTime();
            work.run();
            return threads.getCurrentThreadCpuTime() - before;
        });
        assertThat(Duration.ofNanos(used)).as("CPU time of the work").isLessThan(budget);
    }
}
