package dev.openrag.query.search;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.openrag.knowledge.text.QueryTerms;

/**
 * The {@code automatic} mode's choice, per query and from its form alone: broad "overview"
 * questions go to {@code summary} (the sections that match as a whole), identifier-heavy queries
 * to hybrid with BM25 weighted up (exact names are lexical evidence), other questions to hybrid
 * with the summary boost ({@code hybrid_expanded}), which on the dev queries is never worse than
 * plain hybrid and sometimes better (docs/benchmarks.md).
 */
final class QueryRouter {

    /** The chosen mode, its retriever weights (null: the configured ones) and why. */
    record Route(String mode, Map<String, Double> weights, String reason) {
    }

    private static final Pattern OVERVIEW = Pattern.compile(
            "\\b(overview|summar(y|ize|ise)|high[- ]level|overall|architecture of|in general|big picture"
                    + "|main (idea|components|parts|modules)|how is .+ (organi[sz]ed|structured))\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern WORD = Pattern.compile("\\S+");
    private static final double IDENTIFIER_SHARE = 0.25;

    private final double bm25Boost;

    QueryRouter(double bm25Boost) {
        this.bm25Boost = bm25Boost;
    }

    Route route(String query) {
        if (OVERVIEW.matcher(query).find()) {
            return new Route(SearchService.SUMMARY, null, "broad question: the sections whose summaries match");
        }
        int identifiers = QueryTerms.codeNames(query).size();
        int words = Math.max(1, count(WORD.matcher(query)));
        if (identifiers > 0 && (double) identifiers / words >= IDENTIFIER_SHARE) {
            return new Route("hybrid", Map.of(SearchService.VECTOR, 1.0, SearchService.BM25, bm25Boost),
                    identifiers + " of " + words + " words are identifiers: BM25 weighted " + bm25Boost);
        }
        return new Route(SearchService.HYBRID_EXPANDED, null, "natural-language question: hybrid with the summary boost");
    }

    private static int count(Matcher matcher) {
        int count = 0;
        while (matcher.find()) {
            count++;
        }
        return count;
    }
}
