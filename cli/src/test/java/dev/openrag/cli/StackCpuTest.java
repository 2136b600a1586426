package dev.openrag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The per-thread CPU that `bench ingest` reads to tell the embedder's work from everything else's. */
class StackCpuTest {

    @Test
    void countsTheCpuOfTheNamedThreadsOnly() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "per-thread accounting is Linux's /proc");
        long pid = ProcessHandle.current().pid();
        // spins until it has had 300 ms of CPU by its own count, then until read: on a loaded machine that takes longer, not less
        java.util.concurrent.CountDownLatch used = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean read = new java.util.concurrent.atomic.AtomicBoolean();
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        Thread busy = new Thread(() -> {
            long spin = 0;
            while (!read.get()) {
                spin++;
                if (used.getCount() > 0 && threads.getCurrentThreadCpuTime() >= 300_000_000L) {
                    used.countDown();
                }
            }
            if (spin < 0) {
                System.out.println(spin);
            }
        }, "busy-cpu-test");
        busy.start();
        assertTrue(used.await(60, java.util.concurrent.TimeUnit.SECONDS), "the busy thread got 300 ms of CPU");
        long busyMillis = StackCpu.threadMillis(pid, "busy-cpu-test"::equals); // read while it still runs: an ended thread leaves /proc
        read.set(true);
        busy.join();

        assertTrue(busyMillis >= 250, "a thread that used 300 ms of CPU counted " + busyMillis + " ms");
        assertEquals(0, StackCpu.threadMillis(pid, "no-such-thread"::equals));
        assertEquals(0, StackCpu.threadMillis(Long.MAX_VALUE, name -> true), "a process that is gone counts nothing");
    }

    @Test
    void theLineByComponentTakesTheEmbedderFromItsOwnProcessAndSumsTheEngines() {
        Map<String, Long> cpu = new LinkedHashMap<>();
        cpu.put("kafka", 2_000L);
        cpu.put("neo4j", 6_000L);
        cpu.put("opensearch", 2_000L);
        cpu.put("ingest-pipeline", 70_000L);
        cpu.put("query-api-2", 1_000L);
        Map<String, Long> embedder = Map.of("ingest-pipeline", 60_000L);
        Map<String, Long> jit = Map.of("neo4j", 2_000L, "ingest-pipeline", 1_000L);

        assertEquals("cpu a chunk outside the embedder: kafka 2.0 ms (JIT 0.0), neo4j 6.0 ms (JIT 2.0), opensearch 2.0 ms (JIT 0.0),"
                        + " ingest-pipeline 10.0 ms (JIT 1.0), query-api-2 1.0 ms (JIT 0.0); engines 10.0 ms, of which JIT 2.0 ms",
                BenchCommand.outsideTheEmbedderByComponent(cpu, embedder, jit, 1000));
    }
}
