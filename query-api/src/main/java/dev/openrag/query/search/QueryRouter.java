package dev.openrag.query.search;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code automatic} mode's choice, per query and from its form alone: broad "overview"
 * questions go to {@code hybrid_expanded} (summaries matter most there), identifier-heavy queries
 * to hybrid with BM25 weighted up (exact names are lexical evidence), everything else to hybrid.
 */
final class QueryRouter {

    /** The chosen mode, its retriever weights (null: the configured ones) and why. */
    record Route(String mode, Map<String, Double> weights, String reason) {
    }

    private static final Pattern OVERVIEW = Pattern.compile(
            "\\b(overview|summar(y|ize|ise)|high[- ]level|architecture|in general|big picture|purpose of|main (idea|components|parts|modules)"
                    + "|what (is|are) (the )?\\S+( \\S+)? (for|about)|how is .+ (organi[sz]ed|structured))\\b",
            Pattern.CASE_INSENSITIVE);
    /** snake_case, camelCase/PascalCase with an inner capital, a.b member access, calls, paths, :: scopes. */
    private static final Pattern IDENTIFIER = Pattern.compile(
            "\\b[A-Za-z]+_[A-Za-z0-9_]+\\b|\\b[a-z]+[A-Z][A-Za-z0-9]*\\b|\\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\\b"
                    + "|\\b\\w+\\.\\w+\\b|\\b\\w+\\(\\)|\\w+::\\w+|/\\w+/\\w+");
    private static final Pattern WORD = Pattern.compile("\\S+");
    private static final double IDENTIFIER_SHARE = 0.25;

    private final double bm25Boost;

    QueryRouter(double bm25Boost) {
        this.bm25Boost = bm25Boost;
    }

    Route route(String query) {
        if (OVERVIEW.matcher(query).find()) {
            return new Route("hybrid_expanded", null, "broad question: section and document summaries weigh in");
        }
        int identifiers = count(IDENTIFIER.matcher(query));
        int words = Math.max(1, count(WORD.matcher(query)));
        if (identifiers > 0 && (double) identifiers / words >= IDENTIFIER_SHARE) {
            return new Route("hybrid", Map.of(SearchService.VECTOR, 1.0, SearchService.BM25, bm25Boost),
                    identifiers + " of " + words + " words are identifiers: BM25 weighted " + bm25Boost);
        }
        return new Route("hybrid", null, "natural-language question: hybrid");
    }

    private static int count(Matcher matcher) {
        int count = 0;
        while (matcher.find()) {
            count++;
        }
        return count;
    }
}
