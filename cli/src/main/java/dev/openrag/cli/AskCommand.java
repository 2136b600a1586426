package dev.openrag.cli;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code openrag ask "question"}: the answer streamed as it is written, then its numbered sources. */
@Command(name = "ask", description = "Ask a question; the answer streams, then its numbered sources.")
class AskCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Parameters(index = "0", paramLabel = "QUESTION")
    String question;

    @Option(names = {"-c", "--collection"}, description = "collection (default: default)")
    String collection;

    @Option(names = {"-k"}, defaultValue = "5", description = "sources (default ${DEFAULT-VALUE})")
    int k;

    @Option(names = "--collections", split = ",", paramLabel = "NAME", description = "several collections at once (a,b,c), "
            + "or '*' for every granted one; instead of --collection")
    java.util.List<String> collections;

    @Option(names = "--filter", paramLabel = "JSON", description = "only sources whose document's metadata matches (as in search)")
    String filter;

    @Option(names = "--query-url", defaultValue = "${env:OPENRAG_QUERY_API_URL:-http://127.0.0.1:8080}")
    String queryUrl;

    @Override
    public Integer call() throws Exception {
        Map<String, Object> request = new LinkedHashMap<>(Map.of("question", question, "k", k));
        if (collection != null) {
            request.put("collection", collection);
        }
        if (collections != null) {
            request.put("collections", collections);
        }
        if (filter != null) {
            request.put("filter", MetaOptions.filter(filter));
        }
        int[] exit = {0};
        new ApiClient(queryUrl).postForEvents("/api/ask", JSON.writeValueAsString(request), (event, data) -> {
            switch (event) {
                case "token" -> {
                    System.out.print(data.path("text").asText());
                    System.out.flush();
                }
                case "sources" -> {
                    System.out.println();
                    System.out.println();
                    data.path("sources").forEach(source -> System.out.printf(Locale.ROOT, "[%d] %s  %s%n", source.path("n").asInt(),
                            source.path("title").asText(source.path("documentId").asText()), source.path("sourceUri").asText("")));
                }
                case "done" -> System.out.printf(Locale.ROOT, "(%s%s, %d ms)%n", data.path("mode").asText(),
                        data.has("model") ? " by " + data.path("model").asText() : "", data.path("tookMs").asLong());
                case "error" -> {
                    System.err.println("openrag: " + data.path("message").asText());
                    exit[0] = 1;
                }
                default -> { }
            }
        });
        return exit[0];
    }
}
