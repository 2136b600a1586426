package dev.openrag.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The LLM tokens and cost of ingesting files with a collection's settings, before any model is
 * called ({@code POST /api/estimate}). Its last line is
 * {@code estimate documents=N chunks=N tokens_in=N tokens_out=N cost=X}.
 */
@Command(name = "estimate", description = "Predict the LLM tokens and cost of ingesting files, folders or globs (no model is called).")
class EstimateCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "files, folders or glob patterns, as for ingest")
    List<String> paths;

    @Option(names = {"-c", "--collection"}, defaultValue = "default", description = "the collection whose settings apply (default: ${DEFAULT-VALUE})")
    String collection;

    @Option(names = "--url", defaultValue = "${env:OPENRAG_INGEST_URL:-http://127.0.0.1:8081}", description = "ingest-pipeline URL")
    String url;

    @Override
    public Integer call() throws IOException {
        List<Path> files = IngestCommand.expand(paths);
        if (files.isEmpty()) {
            System.err.println("openrag: no files found in " + String.join(" ", paths));
            return 2;
        }
        ApiClient ingest = new ApiClient(url);
        long documents = 0;
        long chunks = 0;
        Map<String, long[]> roles = new LinkedHashMap<>(); // role -> calls, in, cached, out
        Map<String, String> models = new LinkedHashMap<>();
        Double cost = 0.0;
        for (List<Path> batch : IngestCommand.batches(files)) {
            JsonNode estimate = ingest.postFiles("/api/estimate", batch, Path.of(""), collection);
            documents += estimate.path("documents").asLong();
            chunks += estimate.path("chunks").asLong();
            cost = cost == null || !estimate.path("cost").isNumber() ? null : cost + estimate.path("cost").asDouble();
            estimate.path("roles").properties().forEach(role -> {
                long[] sums = roles.computeIfAbsent(role.getKey(), r -> new long[4]);
                sums[0] += role.getValue().path("calls").asLong();
                sums[1] += role.getValue().path("inputTokens").asLong();
                sums[2] += role.getValue().path("cachedInputTokens").asLong();
                sums[3] += role.getValue().path("outputTokens").asLong();
                models.put(role.getKey(), role.getValue().path("model").asText());
            });
            estimate.path("rejected").forEach(r -> System.out.println("  skipped " + r.path("name").asText() + ": " + r.path("reason").asText()));
        }
        long tokensIn = 0;
        long tokensOut = 0;
        if (roles.isEmpty()) {
            System.out.printf(Locale.ROOT, "collection '%s' uses no LLM: ingesting costs no tokens%n", collection);
        }
        for (Map.Entry<String, long[]> role : roles.entrySet()) {
            long[] sums = role.getValue();
            System.out.printf(Locale.ROOT, "  %-16s %-28s calls=%d tokens_in=%d (cached %d) tokens_out=%d%n", role.getKey(),
                    models.get(role.getKey()), sums[0], sums[1], sums[2], sums[3]);
            tokensIn += sums[1];
            tokensOut += sums[3];
        }
        System.out.printf(Locale.ROOT, "estimate documents=%d chunks=%d tokens_in=%d tokens_out=%d cost=%s%n", documents, chunks, tokensIn, tokensOut,
                cost == null ? "unknown" : String.format(Locale.ROOT, "%.4f", cost));
        return 0;
    }
}
