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
