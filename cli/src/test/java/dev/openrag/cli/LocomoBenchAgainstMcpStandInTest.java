package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

/**
 * {@code openrag bench locomo --tune}: recall over the tune conversations and over the others,
 * against a stand-in for mcp-memory's streamable HTTP endpoint (JSON-RPC over POST /mcp) that finds
 * the evidence of conversation "a" first and never finds conversation "b"'s (mcp-memory's own tests
 * cover the real tools on Neo4j).
 */
class LocomoBenchAgainstMcpStandInTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path data;

    private HttpServer server;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/mcp", exchange -> {
            JsonNode message = JSON.readTree(exchange.getRequestBody());
            exchange.getResponseHeaders().add("Mcp-Session-Id", "stand-in");
            JsonNode arguments = message.path("params").path("arguments");
            String answer = "{}";
            if ("search_memory".equals(message.path("params").path("name").asText())) {
                String tag = arguments.path("scope").asText().startsWith("locomo-a-") ? "D1:1" : "D1:2";
                answer = JSON.writeValueAsString(Map.of("results", List.of(Map.of("memory", Map.of("tags", List.of(tag))))));
            }
            JsonAnswer.send(exchange, 200, JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", message.path("id").asLong(),
                    "result", Map.of("content", List.of(Map.of("type", "text", "text", answer))))));
        });
        server.start();
        for (String name : List.of("a", "b")) {
            Files.writeString(data.resolve(name + ".json"), """
                    {"speaker_a": "Ann", "speaker_b": "Bo", "session_1_date_time": "1:56 pm on 8 May, 2023",
                     "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a cat."},
                                   {"speaker": "Bo", "dia_id": "D1:2", "text": "Lovely!"}],
                     "qa": [{"question": "What did Ann adopt?", "answer": "a cat", "evidence": ["D1:1"], "category": 4}]}
                    """);
        }
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String[] bench(String... more) {
        List<String> args = new ArrayList<>(List.of("bench", "locomo", "--data", data.toString(),
                "--mcp-url", "http://127.0.0.1:" + server.getAddress().getPort()));
        args.addAll(List.of(more));
        return RecordingServer.runWithErrors(args.toArray(String[]::new));
    }

    @Test
    void theTuneHalfAndTheOthersArePrintedBeforeTheLastLine() {
        String[] run = bench("--tune", "a");
        assertThat(run[0]).as(run[2]).isEqualTo("0");
        List<String> lines = run[1].strip().lines().toList();
        assertThat(lines).contains("tune (a) evidence_recall@5=1.0000 @10=1.0000 @20=1.0000 questions=1",
                "check (the others) evidence_recall@5=0.0000 @10=0.0000 @20=0.0000 questions=1");
        assertThat(lines.get(lines.size() - 1)).isEqualTo("locomo evidence_recall@5=0.5000 @10=0.5000 @20=0.5000 questions=2");

        assertThat(bench()[1]).as("no split unless asked").doesNotContain("tune (").doesNotContain("check (");
    }

    @Test
    void aTuneHalfThatIsNotThereOrLeavesNothingToCheckIsAClearError() {
        String[] unknown = bench("--tune", "a,zz");
        assertThat(unknown[0]).isNotEqualTo("0");
        assertThat(unknown[2]).contains("--tune names no conversation of").contains("zz").contains("(there: a, b)");

        String[] everything = bench("--tune", "a,b");
        assertThat(everything[0]).isNotEqualTo("0");
        assertThat(everything[2]).contains("--tune names every conversation").contains("leave some to check on");
    }
}
