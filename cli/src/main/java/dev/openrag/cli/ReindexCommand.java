package dev.openrag.cli;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code openrag reindex [-c C]}: texts and chunk spans for the collection's documents stored without
 * them, and chunks' places for texts stored without them ({@code POST /api/collections/{name}/reindex});
 * the last line sums it up ({@code placed}: the texts given their chunks' places).
 */
@Command(name = "reindex", description = "Rebuild the texts and chunk spans of documents stored without them, from their stored chunks (rebuilt=N),"
        + " and place the chunks of texts stored without their places (placed=N).")
class ReindexCommand implements Callable<Integer> {

    @Option(names = {"-c", "--collection"}, defaultValue = "default", description = "collection (default: ${DEFAULT-VALUE})")
    String collection;

    @Option(names = "--url", defaultValue = "${env:OPENRAG_INGEST_URL:-http://127.0.0.1:8081}", description = "ingest-pipeline URL")
    String url;

    @Override
    public Integer call() {
        // a path segment: spaces as %20, not the form encoding's '+'
        String name = URLEncoder.encode(collection, StandardCharsets.UTF_8).replace("+", "%20");
        JsonNode answer = new ApiClient(url).postJson("/api/collections/" + name + "/reindex", "{}");
        for (JsonNode documentId : answer.path("documentIds")) {
            System.out.println("rebuilt " + documentId.asText());
        }
        System.out.printf(java.util.Locale.ROOT, "reindex collection=%s rebuilt=%d placed=%d%n", answer.path("collection").asText(collection),
                answer.path("rebuilt").asInt(), answer.path("placed").asInt());
        return 0;
    }
}
