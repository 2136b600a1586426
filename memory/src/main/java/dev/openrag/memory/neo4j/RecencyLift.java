package dev.openrag.memory.neo4j;

import java.util.List;

import dev.openrag.memory.MemoryQuery;

/**
 * Signal "recency", when the search asks for it ({@code recencyHalfLifeDays}, {@link MemoryQuery.Recency}):
 * each memory's score, over the best, gains what its age leaves of the recency weight. Nothing is
 * filtered out.
 * <p>
 * Needs: the search to ask for it; a memory's time ({@code occurredAt}, else when it was stored).
 * Messages keep their score over the best.
 * <p>
 * Measured: off by default; the weight (a third of the best hit's score) is fixed, not fitted
 * (docs/benchmarks.md).
 */
final class RecencyLift {

    static final String NAME = "recency";

    private RecencyLift() {
    }

    static List<Fused> apply(MemoryQuery.Recency recency, Said said, List<Fused> fused) {
        double best = fused.stream().mapToDouble(Fused::score).max().orElse(0);
        if (best <= 0) {
            return fused;
        }
        return fused.stream()
                .map(hit -> {
                    Long happened = hit.happened(said);
                    double lift = happened == null ? 0 : recency.lift(happened);
                    return hit.adjusted(hit.score() / best + lift, NAME, lift);
                })
                .sorted(Fused.BEST_FIRST)
                .toList();
    }
}
