package dev.openrag.cli;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code openrag search "query"}: the ranked chunks, each with its source and rank per retriever. */
@Command(name = "search", description = "Search a collection and print the ranked chunks.")
class SearchCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Parameters(index = "0", paramLabel = "QUERY")
    String query;

    @Option(names = {"-c", "--collection"}, description = "collection (default: default)")
    String collection;

    @Option(names = {"-k"}, defaultValue = "5", description = "results (default ${DEFAULT-VALUE})")
    int k;

    @Option(names = "--mode", defaultValue = "hybrid", description = "hybrid, vector, bm25, graph, summary, hybrid_expanded or automatic (default ${DEFAULT-VALUE})")
    String mode;

    @Option(names = "--collections", split = ",", paramLabel = "NAME", description = "several collections at once, fused "
            + "(a,b,c), or '*' for every granted one; instead of --collection")
    java.util.List<String> collections;

    @Option(names = "--filter", paramLabel = "JSON", description = "only documents whose metadata matches, e.g. "
            + "'{\"team\": \"payments\", \"year\": {\"gte\": 2025}}' (the form is in docs/architecture.md)")
    String filter;

    @Option(names = "--query-url", defaultValue = "${env:OPENRAG_QUERY_API_URL:-http://127.0.0.1:8080}")
    String queryUrl;

    @Override
    public Integer call() throws Exception {
        Map<String, Object> request = new LinkedHashMap<>(Map.of("query", query, "k", k, "mode", mode));
        if (collection != null) {
            request.put("collection", collection);
        }
        if (collections != null) {
            request.put("collections", collections);
        }
        if (filter != null) {
            request.put("filter", MetaOptions.filter(filter));
        }
        JsonNode answer = new ApiClient(queryUrl).postJson("/api/search", JSON.writeValueAsString(request));
        int n = 1;
        for (JsonNode result : answer.path("results")) {
            System.out.printf(Locale.ROOT, "%2d. %s  (%s, score %.4f, ranks %s)%n", n++, result.path("title").asText(result.path("documentId").asText()),
                    result.path("chunkId").asText(), result.path("score").asDouble(), result.path("ranks"));
            System.out.println("    " + Text.abbreviate(result.path("text").asText(), 240));
        }
        for (JsonNode correction : answer.path("corrections")) {
            System.out.println("correction: " + correction.path("text").asText());
        }
        for (JsonNode memory : answer.path("memories")) {
            System.out.println("memory: " + memory.path("text").asText());
        }
        if (answer.has("unknownFilterKeys")) {
            System.out.println("no document has the filter's key(s) " + answer.path("unknownFilterKeys") + ": they match nothing");
        }
        System.out.printf(Locale.ROOT, "%d results in %d ms%s%n", answer.path("results").size(), answer.path("tookMs").asLong(),
                answer.has("degraded") ? " (degraded: " + answer.path("degraded") + ")" : "");
        return 0;
    }
}
