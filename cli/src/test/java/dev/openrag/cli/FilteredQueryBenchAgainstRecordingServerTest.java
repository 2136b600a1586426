package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code openrag bench query --filter JSON} against stand-ins of the two apps: every timed search of the
 * filtered run carries the filter, the unfiltered run's none, and the summary line per client setting
 * names both p50s and how many of the corpus's documents the filter keeps, as document browsing counts them.
 */
class FilteredQueryBenchAgainstRecordingServerTest {

    @TempDir
    Path dir;

    @Test
    void theFilteredLineNamesTheFilterAndTheShareOfDocumentsItKeeps() throws Exception {
        Path queries = Files.writeString(dir.resolve("queries.jsonl"), "{\"query\": \"consumer groups\"}\n{\"query\": \"retry\"}\n");
        String filter = "{\"docId\": {\"prefix\": \"doc_1\"}}";
        try (RecordingServer ingest = new RecordingServer(); RecordingServer query = new RecordingServer()) {
            ingest.answer("/api/collections/bench-query/stats", () -> new RecordingServer.Answer(200,
                    "{\"documents\": 90, \"chunks\": {\"opensearch\": 737, \"neo4j\": 737}}"));
            query.answer("/api/search", () -> new RecordingServer.Answer(200,
                    "{\"results\": [{\"chunkId\": \"c\"}, {\"chunkId\": \"d\"}], \"tookMs\": 1}"));
            // the last request recorded is the one being answered: document counts are asked one at a time
            query.answer("/api/documents", () -> new RecordingServer.Answer(200, "{\"total\": "
                    + (query.requests.get(query.requests.size() - 1).contains("filter=") ? 11 : 90) + "}"));

            String[] result = RecordingServer.runWithErrors("bench", "query", "--filter", filter, "--url", ingest.url(),
                    "--query-url", query.url(), "--queries", queries.toString(), "--requests", "8");

            assertThat(result[0]).as(result[2]).isEqualTo("0");
            List<String> lines = result[1].lines().filter(line -> line.startsWith("query-filtered ")).toList();
            assertThat(lines).hasSize(2);
            assertThat(lines.get(0)).contains("chunks=737 clients=1 ").contains("kept_documents=11/90")
                    .contains("mean_results=2.0").endsWith("filter={\"docId\":{\"prefix\":\"doc_1\"}}");
            assertThat(lines.get(1)).contains("clients=8 ");
            List<String> searches = query.requests.stream().filter(r -> r.startsWith("POST /api/search")).toList();
            assertThat(searches).anyMatch(r -> r.contains("\"filter\":{\"docId\":{\"prefix\":\"doc_1\"}}"))
                    .as("the unfiltered runs too").anyMatch(r -> !r.contains("\"filter\""));
            assertThat(query.requests.stream().filter(r -> r.startsWith("GET /api/documents"))
                    .map(r -> URLDecoder.decode(r, StandardCharsets.UTF_8)))
                    .anyMatch(r -> r.contains("collection=bench-query") && r.contains("filter={\"docId\":{\"prefix\":\"doc_1\"}}"));
        }
    }
}
