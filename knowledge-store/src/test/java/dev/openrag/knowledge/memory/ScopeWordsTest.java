package dev.openrag.knowledge.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class ScopeWordsTest {

    @Test
    void aRareWordOutweighsACommonOneAndPossessivesMatchTheName() {
        ScopeWords words = ScopeWords.of(List.of("Caroline's dog barked", "the dog slept", "the dog ate", "a quiet evening"));
        double[] scores = words.scores(MemoryText.queryTerms("What did Caroline's dog do?"));

        assertThat(scores[0]).as("'caroline' (rare) and 'dog'").isGreaterThan(scores[1]);
        assertThat(scores[1]).as("'dog' alone").isPositive().isEqualTo(scores[2]);
        assertThat(scores[3]).as("no term").isZero();
        assertThat(ScopeWords.of(List.of("Caroline's dog")).scores(List.of("caroline"))[0]).isPositive();
    }

    @Test
    void statisticsAreThoseOfTheScopeAlone() {
        double alone = ScopeWords.of(List.of("zephyr blew", "garden bed")).scores(List.of("zephyr"))[0];
        double common = ScopeWords.of(List.of("zephyr blew", "garden bed", "zephyr again", "zephyr once more")).scores(List.of("zephyr"))[0];

        assertThat(alone).as("the same memory, in a scope where the word is rare").isGreaterThan(common);
    }

    @Test
    void anEmptyScopeOrQueryScoresNothing() {
        assertThat(ScopeWords.of(List.of()).scores(List.of("zephyr"))).isEmpty();
        assertThat(ScopeWords.of(List.of("zephyr")).scores(List.of())).containsExactly(0.0);
    }
}
