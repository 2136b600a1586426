package dev.openrag.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.openrag.localstack.Engine;

/**
 * {@code openrag bench faults}: on the running stack, imports the corpus once per engine, kills
 * that engine ({@code kill -9}) once 100 chunks are in Neo4j, brings it back after the outage and
 * prints, per engine, the seconds from its return to the job's completion, the chunks per store
 * and the job's dead letters (both should be exact: the corpus's chunks, and none).
 */
final class FaultBench {

    private final Stack stack = new Stack();
    private final ApiClient ingest;
    private final Path corpus;
    private final Duration outage;

    FaultBench(String ingestUrl, Path corpus, Duration outage) {
        this.ingest = new ApiClient(ingestUrl);
        this.corpus = corpus;
        this.outage = outage;
    }

    int run() throws Exception {
        String body = Files.readString(corpus);
        boolean allExact = true;
        for (Engine engine : List.of(Engine.OPENSEARCH, Engine.NEO4J, Engine.KAFKA)) {
            String collection = "bench-faults-" + engine.componentName();
            JsonNode accepted = ingest.postJson("/api/corpus?collection=" + collection, body);
            String jobId = accepted.path("jobId").asText();
            int chunks = accepted.path("chunks").asInt();
            awaitNeo4jChunks(jobId, 100);

            long pid = stack.engines.status(engine).pid();
            new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor();
            ProcessHandle.of(pid).ifPresent(process -> process.onExit().join());
            System.out.printf(Locale.ROOT, "%s killed (pid %d); back in %d s ...%n", engine.componentName(), pid, outage.toSeconds());
            Thread.sleep(outage.toMillis());
            stack.engines.start(Set.of(engine), line -> System.out.println("  " + line));
            long back = System.nanoTime();
            JsonNode job = awaitFinished(jobId);
            double seconds = (System.nanoTime() - back) / 1e9;

            JsonNode stats = settledStats(collection, chunks);
            int deadLetters = ingest.get("/api/dlq?jobId=" + jobId).path("count").asInt();
            boolean exact = "completed".equals(job.path("state").asText()) && stats.path("opensearch").asInt() == chunks
                    && stats.path("neo4j").asInt() == chunks && deadLetters == 0;
            allExact &= exact;
            System.out.printf(Locale.ROOT, "faults %-10s outage %d s: job %s %.1f s after the engine returned; chunks opensearch %d, neo4j %d of %d;"
                            + " dead letters %d%s%n", engine.componentName(), outage.toSeconds(), job.path("state").asText(), seconds,
                    stats.path("opensearch").asInt(), stats.path("neo4j").asInt(), chunks, deadLetters, exact ? "" : "  << NOT EXACT");
        }
        return allExact ? 0 : 1;
    }

    /** The chunk counts once both stores show them all, or after 10 s (OpenSearch counts what its 1 s refresh made visible). */
    private JsonNode settledStats(String collection, int chunks) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        JsonNode stats;
        do {
            Thread.sleep(500);
            stats = ingest.get("/api/collections/" + collection + "/stats").path("chunks");
        } while ((stats.path("opensearch").asInt() != chunks || stats.path("neo4j").asInt() != chunks) && System.nanoTime() < deadline);
        return stats;
    }

    private void awaitNeo4jChunks(String jobId, int chunks) throws InterruptedException {
        while (ingest.get("/api/jobs/" + jobId).path("stages").path("sink-neo4j").path("chunks").asInt() < chunks) {
            Thread.sleep(200);
        }
    }

    /** Polls the job until it finishes; the ingest API may itself be briefly unreachable meanwhile. */
    private JsonNode awaitFinished(String jobId) throws InterruptedException {
        while (true) {
            Thread.sleep(500);
            try {
                JsonNode job = ingest.get("/api/jobs/" + jobId);
                if (!"running".equals(job.path("state").asText())) {
                    return job;
                }
            } catch (RuntimeException unreachable) {
                // the status API answers again in a moment
            }
        }
    }
}
