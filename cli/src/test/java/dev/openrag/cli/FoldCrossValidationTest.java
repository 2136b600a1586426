package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.cli.FoldCrossValidation.QueryScore;

class FoldCrossValidationTest {

    private static List<QueryScore> queries(double... at10) {
        return java.util.Arrays.stream(at10).mapToObj(v -> new QueryScore(v, v, v)).toList();
    }

    @Test
    void eachLeftOutFoldIsScoredWithTheVariantChosenOnTheOtherFolds() {
        Map<String, Map<String, List<QueryScore>>> scores = new LinkedHashMap<>();
        // "tuned" is perfect on fold1 only: chosen whenever fold1 is among the tuning folds, it
        // scores 0.5 wherever it is tested; the protocol reports that, not the all-folds 0.67
        scores.put("base", Map.of("fold1", queries(0.5, 0.5), "fold2", queries(0.6, 0.6), "fold3", queries(0.6, 0.6)));
        scores.put("tuned", Map.of("fold1", queries(1.0, 1.0), "fold2", queries(0.5, 0.5), "fold3", queries(0.5, 0.5)));
        scores.replaceAll((variant, folds) -> new java.util.TreeMap<>(folds));

        FoldCrossValidation.Result result = FoldCrossValidation.run(scores);

        assertThat(result.folds()).extracting(FoldCrossValidation.LeftOut::chosen).containsExactly("base", "tuned", "tuned");
        assertThat(result.folds().get(0).score().at10()).isEqualTo(0.5); // fold1 left out: base (0.6 on folds 2-3) beats tuned (0.5)
        assertThat(result.folds().get(1).score().at10()).isEqualTo(0.5); // fold2 left out: tuned (0.75 on 1,3) beats base (0.55)
        assertThat(result.mean().at10()).isCloseTo(0.5, within(1e-9));
        assertThat(result.worst().at10()).isEqualTo(0.5);
        assertThat(result.pooled().queries()).isEqualTo(6);
    }

    @Test
    void oneVariantIsJustPerFoldScoresWithTheirMeanAndWorst() {
        Map<String, Map<String, List<QueryScore>>> scores = Map.of("base",
                new java.util.TreeMap<>(Map.of("a", queries(1.0, 0.0), "b", queries(1.0, 1.0))));
        FoldCrossValidation.Result result = FoldCrossValidation.run(scores);
        assertThat(result.mean().at10()).isCloseTo(0.75, within(1e-9));
        assertThat(result.worst().at10()).isEqualTo(0.5);
        assertThat(result.folds()).extracting(FoldCrossValidation.LeftOut::fold).containsExactly("a", "b");
    }

    @Test
    void fewerThanTwoFoldsOrNoVariantIsAnError() {
        assertThatThrownBy(() -> FoldCrossValidation.run(Map.of())).hasMessageContaining("no variant");
        assertThatThrownBy(() -> FoldCrossValidation.run(Map.of("base", Map.of("only", queries(1.0)))))
                .hasMessageContaining("at least two folds");
    }
}
