package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 72: {@code openrag bench ask} times extractive asks as {@code bench query} times searches, and
 * tells first-time questions from repeated ones by query-api's own query-vector cache counter. The
 * stand-in answers as query-api does: its counter counts a hit for every question it embedded before.
 */
class AskBenchAgainstRecordingServerTest {

    private RecordingServer server;

    @TempDir
    Path folder;

    @AfterEach
    void stop() {
        server.close();
    }

    /** A query-api that answers {@code mode} and already knows the questions in {@code known}. */
    private RecordingServer queryApi(String mode, Set<String> known) throws Exception {
        Set<String> seen = new HashSet<>(known);
        AtomicInteger hits = new AtomicInteger();
        server = new RecordingServer();
        RecordingServer recording = server;
        return server
                .answer("/api/collections/bench-query/stats", () -> new RecordingServer.Answer(200,
                        "{\"collection\":\"bench-query\",\"documents\":1,\"chunks\":{\"opensearch\":737,\"neo4j\":737}}"))
                .answer("/api/ask", () -> {
                    String asked = recording.requests.get(recording.requests.size() - 1);
                    String question = asked.replaceAll(".*\"question\":\"([^\"]*)\".*", "$1");
                    if (!seen.add(question)) {
                        hits.incrementAndGet();
                    }
                    return new RecordingServer.Answer(200, "{\"answer\":\"An answer. [1]\",\"mode\":\"" + mode
                            + "\",\"sources\":[],\"tookMs\":4}");
                })
                .answer("/q/metrics", () -> new RecordingServer.Answer(200, String.join("\n",
                        "# TYPE cache_gets_total counter",
                        "cache_gets_total{cache=\"query-vectors\",result=\"miss\"} 99.0",
                        "cache_gets_total{cache=\"query-vectors\",result=\"hit\"} " + hits.get() + ".0",
                        "cache_gets_total{cache=\"other\",result=\"hit\"} 1000.0")));
    }

    private Path questions() throws Exception {
        return Files.writeString(folder.resolve("questions.jsonl"),
                "{\"query\":\"How are retries configured?\"}\n{\"query\":\"Where is the cache?\"}\n\n{\"query\":\"Who owns the index?\"}\n");
    }

    @Test
    void eachQuestionIsAskedOnceThenAgainAndTheTwoAreReportedApart() throws Exception {
        queryApi("extractive", Set.of());
        String[] result = RecordingServer.runWithErrors("bench", "ask", "--query-url", server.url(), "--url", server.url(),
                "--queries", questions().toString(), "--requests", "6");
        assertThat(result[0]).as(result[2]).isEqualTo("0");
        assertThat(result[1]).contains("first-time (query vector computed) n=3 p50_ms=")
                .contains("repeated (vector from the cache) n=3 p50_ms=");
        assertThat(result[1].strip().lines().reduce((a, b) -> b).orElseThrow())
                .matches("ask \\(extractive\\) chunks=737 clients=1 p50_ms=\\d+\\.\\d p95_ms=\\d+\\.\\d p99_ms=\\d+\\.\\d qps=\\d+\\.\\d");
        assertThat(server.requests.stream().filter(request -> request.startsWith("POST /api/ask"))
                .filter(request -> request.contains("\"question\":\"Where is the cache?\"")))
                .as("asked once, then again").hasSize(2);
    }

    @Test
    void aQuestionQueryApiAlreadyKnewCountsAsRepeatedEvenOnItsFirstAskHere() throws Exception {
        queryApi("extractive", Set.of("Where is the cache?"));
        String[] result = RecordingServer.runWithErrors("bench", "ask", "--query-url", server.url(), "--url", server.url(),
                "--queries", questions().toString(), "--requests", "6");
        assertThat(result[0]).isEqualTo("0");
        assertThat(result[1]).contains("first-time (query vector computed) n=2 ").contains("repeated (vector from the cache) n=4 ");
    }

    @Test
    void aGenerativeAnswerIsRefusedWithTheReason() throws Exception {
        queryApi("generative", Set.of());
        String[] result = RecordingServer.runWithErrors("bench", "ask", "--query-url", server.url(), "--url", server.url(),
                "--queries", questions().toString(), "--requests", "6");
        assertThat(result[0]).isEqualTo("1");
        assertThat(result[2]).contains("mode 'generative'").contains("openrag.chat.provider=none");
        assertThat(result[1]).doesNotContain("ask (extractive) chunks=");
    }
}
