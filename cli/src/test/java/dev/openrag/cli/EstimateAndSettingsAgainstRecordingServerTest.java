package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code openrag estimate} and {@code openrag settings} against a JDK HTTP server that records
 * what it is sent and answers as ingest-pipeline's endpoints do (ingest's own tests cover the
 * real ones): the estimate's last line, an unknown cost, and the settings body.
 */
class EstimateAndSettingsAgainstRecordingServerTest {

    private RecordingServer server;
    private List<String> requests;
    private volatile String estimate;

    @BeforeEach
    void start() throws Exception {
        server = new RecordingServer()
                .answer("/api/estimate", () -> new RecordingServer.Answer(200, estimate))
                .answer("/api/collections", () -> new RecordingServer.Answer(200,
                        "{\"contextualizer\":\"llm\",\"graphExtractor\":\"rules\",\"summaries\":\"extractive\"}"));
        requests = server.requests;
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void theEstimatesLastLineSumsTheRolesAndPricesThem(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.md"), "# A\nOne.");
        estimate = """
                {"collection":"notes","documents":1,"chunks":3,"tokensIn":5200,"cachedTokensIn":2048,"tokensOut":400,"cost":0.0123,
                 "roles":{"contextualizer":{"model":"openai:gpt-4o-mini","calls":3,"inputTokens":5000,"cachedInputTokens":2048,"outputTokens":240},
                          "summarizer":{"model":"ollama:llama3.2","calls":2,"inputTokens":200,"cachedInputTokens":0,"outputTokens":160}},
                 "rejected":[]}""";

        String printed = RecordingServer.run("estimate", dir.toString(), "--collection", "notes", "--url", server.url());

        assertThat(requests).singleElement().asString().startsWith("POST /api/estimate").contains("name=\"collection\"").contains("notes");
        assertThat(printed).contains("contextualizer   openai:gpt-4o-mini           calls=3 tokens_in=5000 (cached 2048) tokens_out=240");
        assertThat(printed.strip().lines().reduce((first, last) -> last).orElseThrow())
                .isEqualTo("estimate documents=1 chunks=3 tokens_in=5200 tokens_out=400 cost=0.0123");
    }

    @Test
    void aHostedModelWithoutAPriceMakesTheCostUnknown(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a.md"), "# A\nOne.");
        estimate = """
                {"collection":"notes","documents":1,"chunks":1,"tokensIn":90,"cachedTokensIn":0,"tokensOut":80,
                 "roles":{"contextualizer":{"model":"anthropic:claude","calls":1,"inputTokens":90,"cachedInputTokens":0,"outputTokens":80}},
                 "rejected":[{"name":"b.bin","reason":"unsupported document type"}]}""";

        String printed = RecordingServer.run("estimate", dir.toString(), "--url", server.url());

        assertThat(printed).contains("skipped b.bin: unsupported document type")
                .endsWith("estimate documents=1 chunks=1 tokens_in=90 tokens_out=80 cost=unknown" + System.lineSeparator());
    }

    @Test
    void settingsShowsOrReplacesTheCollectionsSettings() {
        RecordingServer.run("settings", "notes", "--url", server.url());
        RecordingServer.run("settings", "notes", "--contextualizer", "llm", "--model", "contextualizer=openai:gpt-4o-mini",
                "--model", "graph-extractor=anthropic", "--max-tokens", "200000", "--url", server.url());

        assertThat(requests.get(0)).isEqualTo("GET /api/collections/notes/settings auth=null ");
        assertThat(requests.get(1)).startsWith("PUT /api/collections/notes/settings auth=null ")
                .contains("\"contextualizer\":\"llm\"")
                .contains("\"contextualizer\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\"}")
                .contains("\"graph-extractor\":{\"provider\":\"anthropic\"}")
                .contains("\"budget\":{\"maxTokens\":200000,\"maxCost\":null}");
    }
}
