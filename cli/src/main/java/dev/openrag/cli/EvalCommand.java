package dev.openrag.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.openrag.cli.PassAtK.ChunkRef;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code openrag eval}: imports a pre-chunked corpus through the real pipeline into a fresh
 * collection, sends every query to {@code POST /api/search} and prints Pass@5/10/20.
 */
@Command(name = "eval", description = "Retrieval quality: import a corpus, run queries, print pass@5/10/20 (last line).")
class EvalCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--corpus", required = true, description = "pre-chunked corpus JSON")
    Path corpus;

    @Option(names = "--queries", description = "queries JSONL with golden_chunk_uuids")
    Path queries;

    @Option(names = "--folds", description = "a folder of fold*.jsonl query files: cross-validate (one line per left-out fold, "
            + "then the mean and the worst; the last line pools every left-out query)")
    Path folds;

    @Option(names = "--variant", description = "with --folds: NAME=JSON search settings to choose from by cross-validation, "
            + "e.g. 'deep={\"candidates\":60}' (repeatable; 'server' = the server's defaults is always one)")
    List<String> variants;

    @Option(names = "--collection", description = "collection to import into (default: a fresh eval-<time>)")
    String collection;

    @Option(names = "--skip-import", description = "search an already imported --collection instead of importing")
    boolean skipImport;

    @Option(names = "--mode", defaultValue = "hybrid", description = "search mode (default: ${DEFAULT-VALUE})")
    String mode;

    @Option(names = "--rerank", negatable = true, description = "ask for the second stage (--no-rerank: without it; default: the server's setting)")
    Boolean rerank;

    @Option(names = "--json", description = "write per-query ranks of the golden chunks to this file")
    Path jsonOut;

    @Option(names = "--ingest-url", defaultValue = "${env:OPENRAG_INGEST_URL:-http://127.0.0.1:8081}")
    String ingestUrl;

    @Option(names = "--query-url", defaultValue = "${env:OPENRAG_QUERY_API_URL:-http://127.0.0.1:8080}")
    String queryUrl;

    @Override
    public Integer call() throws Exception {
        if (skipImport && collection == null) {
            System.err.println("openrag: --skip-import needs --collection");
            return 2;
        }
        if ((queries == null) == (folds == null)) {
            System.err.println("openrag: give --queries FILE or --folds DIR");
            return 2;
        }
        String target = collection != null ? collection : "eval-" + System.currentTimeMillis();
        if (!skipImport) {
            CorpusImport.run(ingestUrl, corpus, target);
        }
        if (folds != null) {
            return crossValidate(target);
        }

        ApiClient query = new ApiClient(queryUrl);
        List<Double> at5 = new ArrayList<>();
        List<Double> at10 = new ArrayList<>();
        List<Double> at20 = new ArrayList<>();
        ArrayNode perQuery = JSON.createArrayNode();
        long searchMillis = 0;
        for (String line : Files.readAllLines(queries)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode item = JSON.readTree(line);
            Searched searched = search(query, target, item, JSON.createObjectNode());
            Set<ChunkRef> golden = searched.golden();
            List<ChunkRef> ranked = searched.ranked();
            searchMillis += searched.tookMs();
            at5.add(PassAtK.forQuery(golden, ranked, 5));
            at10.add(PassAtK.forQuery(golden, ranked, 10));
            at20.add(PassAtK.forQuery(golden, ranked, 20));
            ObjectNode entry = perQuery.addObject();
            entry.put("query", item.path("query").asText());
            ArrayNode ranks = entry.putArray("goldenRanks");
            golden.forEach(g -> ranks.add(ranked.indexOf(g) < 0 ? null : ranked.indexOf(g) + 1));
        }
        if (jsonOut != null) {
            ObjectNode report = JSON.createObjectNode();
            report.put("collection", target);
            report.put("mode", mode);
            report.put("pass@5", PassAtK.mean(at5));
            report.put("pass@10", PassAtK.mean(at10));
            report.put("pass@20", PassAtK.mean(at20));
            report.set("queries", perQuery);
            Files.writeString(jsonOut, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
        }
        System.out.printf(Locale.ROOT, "collection=%s mode=%s%s mean_search_ms=%.1f%n", target, mode,
                rerank == null ? "" : rerank ? " rerank=on" : " rerank=off", at5.isEmpty() ? 0.0 : (double) searchMillis / at5.size());
        System.out.println(PassAtK.summaryLine(PassAtK.mean(at5), PassAtK.mean(at10), PassAtK.mean(at20), at5.size()));
        return 0;
    }

    /** Scores every variant on every fold, then the fold protocol of {@link FoldCrossValidation}. */
    private int crossValidate(String target) throws Exception {
        List<Path> foldFiles;
        try (var listing = Files.list(folds)) {
            foldFiles = listing.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList();
        }
        Map<String, ObjectNode> settings = new LinkedHashMap<>();
        settings.put("server", JSON.createObjectNode());
        for (String variant : variants == null ? List.<String>of() : variants) {
            int equals = variant.indexOf('=');
            if (equals < 1) {
                System.err.println("openrag: --variant needs NAME=JSON, got " + variant);
                return 2;
            }
            settings.put(variant.substring(0, equals), (ObjectNode) JSON.readTree(variant.substring(equals + 1)));
        }
        ApiClient query = new ApiClient(queryUrl);
        Map<String, Map<String, List<FoldCrossValidation.QueryScore>>> scores = new LinkedHashMap<>();
        for (var variant : settings.entrySet()) {
            Map<String, List<FoldCrossValidation.QueryScore>> perFold = new LinkedHashMap<>();
            for (Path fold : foldFiles) {
                List<FoldCrossValidation.QueryScore> foldScores = new ArrayList<>();
                for (String line : Files.readAllLines(fold)) {
                    if (!line.isBlank()) {
                        foldScores.add(score(query, target, JSON.readTree(line), variant.getValue()));
                    }
                }
                perFold.put(fold.getFileName().toString().replaceFirst("[.]jsonl$", ""), foldScores);
            }
            scores.put(variant.getKey(), perFold);
            FoldCrossValidation.perFold(perFold).forEach((fold, score) -> System.out.printf(java.util.Locale.ROOT,
                    "variant=%s fold=%s pass@5=%.4f pass@10=%.4f pass@20=%.4f queries=%d%n",
                    variant.getKey(), fold, score.at5(), score.at10(), score.at20(), score.queries()));
        }
        FoldCrossValidation.Result result = FoldCrossValidation.run(scores);
        for (FoldCrossValidation.LeftOut left : result.folds()) {
            System.out.printf(java.util.Locale.ROOT, "left-out fold=%s chosen=%s pass@5=%.4f pass@10=%.4f pass@20=%.4f%n",
                    left.fold(), left.chosen(), left.score().at5(), left.score().at10(), left.score().at20());
        }
        System.out.printf(java.util.Locale.ROOT, "left-out mean pass@5=%.4f pass@10=%.4f pass@20=%.4f; worst fold pass@5=%.4f pass@10=%.4f pass@20=%.4f%n",
                result.mean().at5(), result.mean().at10(), result.mean().at20(), result.worst().at5(), result.worst().at10(), result.worst().at20());
        System.out.printf(Locale.ROOT, "collection=%s mode=%s cross-validated over %d folds%n", target, mode, foldFiles.size());
        System.out.println(PassAtK.summaryLine(result.pooled().at5(), result.pooled().at10(), result.pooled().at20(), result.pooled().queries()));
        return 0;
    }

    private FoldCrossValidation.QueryScore score(ApiClient query, String target, JsonNode item, ObjectNode overrides) {
        Searched searched = search(query, target, item, overrides);
        return new FoldCrossValidation.QueryScore(PassAtK.forQuery(searched.golden(), searched.ranked(), 5),
                PassAtK.forQuery(searched.golden(), searched.ranked(), 10), PassAtK.forQuery(searched.golden(), searched.ranked(), 20));
    }

    /** One evaluation query: its golden chunks, the top 20 the search ranked, and the server's time. */
    private record Searched(Set<ChunkRef> golden, List<ChunkRef> ranked, long tookMs) {
    }

    /** Sends one query of the evaluation set with this command's settings plus {@code overrides}. */
    private Searched search(ApiClient query, String target, JsonNode item, ObjectNode overrides) {
        Set<ChunkRef> golden = new LinkedHashSet<>();
        item.path("golden_chunk_uuids").forEach(pair -> golden.add(new ChunkRef(pair.get(0).asText(), pair.get(1).asInt())));
        ObjectNode search = JSON.createObjectNode();
        search.put("query", item.path("query").asText());
        search.put("k", 20);
        search.put("collection", target);
        search.put("mode", mode);
        if (rerank != null) {
            search.put("rerank", rerank);
        }
        search.setAll(overrides);
        JsonNode answer = query.postJson("/api/search", search.toString());
        List<ChunkRef> ranked = new ArrayList<>();
        answer.path("results").forEach(r -> ranked.add(new ChunkRef(r.path("documentId").asText(), r.path("chunkIndex").asInt())));
        return new Searched(golden, ranked, answer.path("tookMs").asLong());
    }
}
