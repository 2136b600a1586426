package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

/**
 * {@code openrag memory import} against a JDK HTTP server that records each batch and answers as
 * query-api's {@code POST /api/memories:batch} does (an id it has seen counts as existing; query-api's
 * and mcp-memory's tests cover the real endpoint on Neo4j): batches of the asked size, stable ids
 * so a second import adds nothing, bad lines refused before anything is sent.
 */
class MemoryImportAgainstRecordingServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private HttpServer server;
    private final List<JsonNode> batches = new CopyOnWriteArrayList<>();
    private final Set<String> stored = ConcurrentHashMap.newKeySet();
    private volatile boolean refuse;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/memories:batch", exchange -> {
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            batches.add(body);
            int added = 0;
            for (JsonNode memory : body.path("memories")) {
                added += stored.add(memory.path("id").asText()) ? 1 : 0;
            }
            String answer = refuse ? "{\"error\":\"bad_request\",\"message\":\"'memories[0].occurredAt' must be an ISO-8601 date\"}"
                    : "{\"added\":" + added + ",\"existing\":" + (body.path("memories").size() - added) + "}";
            JsonAnswer.send(exchange, refuse ? 400 : 200, answer);
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String[] run(String... args) {
        return RecordingServer.runWithErrors(args);
    }

    private String[] importFile(Path file, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("memory", "import", file.toString(), "--scope", "team",
                "--query-url", "http://127.0.0.1:" + server.getAddress().getPort()));
        args.addAll(List.of(more));
        return run(args.toArray(String[]::new));
    }

    @Test
    void importsInBatchesAndASecondImportAddsNothing() throws Exception {
        Path file = Files.writeString(dir.resolve("memories.jsonl"), """
                {"text": "Caroline went to a support group", "speaker": "Caroline", "occurredAt": "2023-05-08"}

                {"id": "m-2", "text": "Melanie painted a sunrise"}
                {"text": "Caroline went to a support group", "speaker": "Caroline", "occurredAt": "2023-05-08"}
                {"text": "The rota is fortnightly", "supersedes": "m-2"}
                """);
        String[] first = importFile(file, "--batch", "2");
        assertThat(first[0]).isEqualTo("0");
        assertThat(first[1]).contains("imported 2/3 (added 2, already there 0)")
                .endsWith("memory import scope=team memories=3 added=3 existing=0\n");
        assertThat(batches).hasSize(2);
        assertThat(batches.get(0).path("scope").asText()).isEqualTo("team");
        assertThat(batches.get(0).path("memories").get(0).path("id").asText()).startsWith("import-");
        assertThat(batches.get(0).path("memories").get(1).path("id").asText()).isEqualTo("m-2");
        assertThat(batches.get(1).path("memories").get(0).path("supersedes").asText()).isEqualTo("m-2");

        String[] again = importFile(file);
        assertThat(again[1]).endsWith("memory import scope=team memories=3 added=0 existing=3\n");
        assertThat(batches.get(2).path("memories").get(0).path("id")).isEqualTo(batches.get(0).path("memories").get(0).path("id"));
    }

    @Test
    void badLinesStopTheImportBeforeAnythingIsSent() throws Exception {
        Path notJson = Files.writeString(dir.resolve("a.jsonl"), "{\"text\": \"fine\"}\n{\"text\": oops}\n");
        String[] result = importFile(notJson);
        assertThat(result[0]).isEqualTo("1");
        assertThat(result[2]).contains("line 2 is not JSON");
        Path noText = Files.writeString(dir.resolve("b.jsonl"), "[\"text\"]\n");
        assertThat(importFile(noText)[2]).contains("line 1 must be a JSON object with a \"text\" string");
        Path reused = Files.writeString(dir.resolve("c.jsonl"), "{\"id\": \"x\", \"text\": \"one\"}\n{\"id\": \"x\", \"text\": \"two\"}\n");
        assertThat(importFile(reused)[2]).contains("line 2 reuses id 'x'");
        assertThat(importFile(dir.resolve("missing.jsonl"))[2]).contains("no such file");
        assertThat(importFile(Files.writeString(dir.resolve("d.jsonl"), "\n\n"))[2]).contains("holds no memories");
        assertThat(importFile(notJson, "--batch", "501")[2]).contains("--batch must be between 1 and 500");
        assertThat(batches).isEmpty();
    }

    @Test
    void aRefusedBatchSaysWhichMemoriesAndWhy() throws Exception {
        refuse = true;
        Path file = Files.writeString(dir.resolve("m.jsonl"), "{\"text\": \"x\", \"occurredAt\": \"soon\"}\n");
        String[] result = importFile(file);
        assertThat(result[0]).isEqualTo("1");
        assertThat(result[2]).contains("memories 1-1 of 1 were not imported (0 added before them; run again to resume)")
                .contains("HTTP 400").contains("'memories[0].occurredAt' must be an ISO-8601 date");
    }
}
