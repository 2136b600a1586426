package dev.openrag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** The per-thread CPU that `bench ingest` reads to tell the embedder's work from everything else's. */
class StackCpuTest {

    @Test
    void countsTheCpuOfTheNamedThreadsOnly() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "per-thread accounting is Linux's /proc");
        long pid = ProcessHandle.current().pid();
        Thread busy = new Thread(() -> {
            long until = System.nanoTime() + 400_000_000L;
            long spin = 0;
            while (System.nanoTime() < until) {
                spin++;
            }
            if (spin < 0) {
                System.out.println(spin);
            }
        }, "busy-cpu-test");
        busy.start();
        Thread.sleep(300); // read while it still runs: an ended thread leaves /proc
        long busyMillis = StackCpu.threadMillis(pid, "busy-cpu-test"::equals);
        busy.join();

        assertTrue(busyMillis >= 100, "a thread spinning for 300 ms used " + busyMillis + " ms");
        assertEquals(0, StackCpu.threadMillis(pid, "no-such-thread"::equals));
        assertEquals(0, StackCpu.threadMillis(Long.MAX_VALUE, name -> true), "a process that is gone counts nothing");
    }
}
