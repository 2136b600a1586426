package dev.openrag.cli;

import java.util.List;
import java.util.Set;

/**
 * Pass@k as in Anthropic's contextual-retrieval study: per query, the share of its golden chunks
 * ([documentId, chunkIndex]) found in the top k results, averaged over queries.
 */
final class PassAtK {

    /** A chunk as the evaluation names it. */
    record ChunkRef(String documentId, int chunkIndex) {
    }

    private PassAtK() {
    }

    /** The share of {@code golden} among the first {@code k} of {@code ranked}. */
    static double forQuery(Set<ChunkRef> golden, List<ChunkRef> ranked, int k) {
        if (golden.isEmpty()) {
            return 0;
        }
        long found = ranked.stream().limit(k).distinct().filter(golden::contains).count();
        return (double) found / golden.size();
    }

    static double mean(List<Double> values) {
        return values.isEmpty() ? 0 : values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    /** The exact closing line of {@code openrag eval} (ARCHITECTURE §6). */
    static String summaryLine(double at5, double at10, double at20, int queries) {
        return String.format(java.util.Locale.ROOT, "pass@5=%.4f pass@10=%.4f pass@20=%.4f queries=%d", at5, at10, at20, queries);
    }
}
