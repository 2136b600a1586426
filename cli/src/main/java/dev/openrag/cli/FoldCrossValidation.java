package dev.openrag.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fold protocol of {@code openrag eval --folds}: for each fold left out, the variant (a set of
 * search settings) with the best Pass@10 on the other folds (Pass@20, then Pass@5, then the first
 * listed break ties) is chosen, and only its score on the left-out fold counts. The mean and the
 * worst of those left-out scores estimate how the method does on questions nobody tuned for.
 */
final class FoldCrossValidation {

    /** Pass@5/10/20 of one query. */
    record QueryScore(double at5, double at10, double at20) {
    }

    /** Mean Pass@5/10/20 over some queries. */
    record Score(double at5, double at10, double at20, int queries) {

        static Score of(List<QueryScore> scores) {
            return new Score(scores.stream().mapToDouble(QueryScore::at5).average().orElse(0),
                    scores.stream().mapToDouble(QueryScore::at10).average().orElse(0),
                    scores.stream().mapToDouble(QueryScore::at20).average().orElse(0), scores.size());
        }
    }

    /** What the protocol chose for one left-out fold, and how that choice did there. */
    record LeftOut(String fold, String chosen, Score score) {
    }

    /** All left-out folds, their mean (over folds) and worst, and every left-out query pooled. */
    record Result(List<LeftOut> folds, Score mean, Score worst, Score pooled) {
    }

    private static final Comparator<Score> BETTER = Comparator.comparingDouble(Score::at10)
            .thenComparingDouble(Score::at20).thenComparingDouble(Score::at5);

    private FoldCrossValidation() {
    }

    /**
     * @param scores variant → fold → per-query scores; every variant holds the same folds and queries
     */
    static Result run(Map<String, Map<String, List<QueryScore>>> scores) {
        if (scores.isEmpty()) {
            throw new IllegalArgumentException("no variant to cross-validate");
        }
        List<String> folds = List.copyOf(scores.values().iterator().next().keySet());
        if (folds.size() < 2) {
            throw new IllegalArgumentException("cross-validation needs at least two folds, got " + folds.size());
        }
        List<LeftOut> leftOut = new ArrayList<>();
        List<QueryScore> pooled = new ArrayList<>();
        for (String heldOut : folds) {
            String best = null;
            Score bestScore = null;
            for (var variant : scores.entrySet()) {
                List<QueryScore> tuning = new ArrayList<>();
                variant.getValue().forEach((fold, queries) -> {
                    if (!fold.equals(heldOut)) {
                        tuning.addAll(queries);
                    }
                });
                Score score = Score.of(tuning);
                if (bestScore == null || BETTER.compare(score, bestScore) > 0) {
                    best = variant.getKey();
                    bestScore = score;
                }
            }
            List<QueryScore> test = scores.get(best).get(heldOut);
            leftOut.add(new LeftOut(heldOut, best, Score.of(test)));
            pooled.addAll(test);
        }
        Score mean = new Score(leftOut.stream().mapToDouble(f -> f.score().at5()).average().orElse(0),
                leftOut.stream().mapToDouble(f -> f.score().at10()).average().orElse(0),
                leftOut.stream().mapToDouble(f -> f.score().at20()).average().orElse(0), pooled.size());
        Score worst = leftOut.stream().map(LeftOut::score).min(BETTER).orElseThrow();
        return new Result(leftOut, mean, worst, Score.of(pooled));
    }

    /** Per-fold scores of one variant, in fold order (for the per-variant lines). */
    static Map<String, Score> perFold(Map<String, List<QueryScore>> variant) {
        Map<String, Score> result = new LinkedHashMap<>();
        variant.forEach((fold, queries) -> result.put(fold, Score.of(queries)));
        return result;
    }
}
