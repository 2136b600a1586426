package dev.openrag.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;


class ScopeWordsTest {

    @Test
    void aRareWordOutweighsACommonOneAndPossessivesMatchTheName() {
        ScopeWords words = ScopeWords.of(List.of("Caroline's dog barked", "the dog slept", "the dog ate", "a quiet evening"));
        double[] scores = words.scores(words.terms("What did Caroline's dog do?"));

        assertThat(scores[0]).as("'caroline' (rare) and 'dog'").isGreaterThan(scores[1]);
        assertThat(scores[1]).as("'dog' alone").isPositive().isEqualTo(scores[2]);
        assertThat(scores[3]).as("no term").isZero();
        assertThat(ScopeWords.of(List.of("Caroline's dog")).scores(List.of("caroline"))[0]).isPositive();
    }

    @Test
    void wordsSayNothingWhenEveryMemoryHoldsThemOrEveryMemoryScoresTheSame() {
        ScopeWords priya = ScopeWords.of(List.of("Priya lives in Manchester.", "Priya is a data engineer.", "Priya drinks tea."), true);
        assertThat(priya.sayNothing(priya.terms("Where does Priya live?"))).as("'live' tells the first apart").isFalse();
        assertThat(priya.sayNothing(priya.terms("Tell me about Priya"))).as("'Priya' is in every memory").isTrue();

        ScopeWords sam = ScopeWords.of(List.of("I live in Leeds.", "I live in Hull.", "I work in Acme.", "I work in Globex."), true);
        assertThat(sam.sayNothing(sam.terms("Do I live or work there?")))
                .as("each memory holds one of two words, as common and as long: a tie ranks by nothing").isTrue();
        assertThat(sam.sayNothing(sam.terms("Where do I work at Acme?")))
                .as("one memory holds both words").isFalse();
        assertThat(sam.sayNothing(sam.terms("Where is Hull?"))).as("one memory holds the word").isFalse();
        assertThat(sam.sayNothing(sam.terms("quokkas"))).as("nothing found: nothing to say").isFalse();
    }

    @Test
    void statisticsAreThoseOfTheScopeAlone() {
        double alone = ScopeWords.of(List.of("zephyr blew", "garden bed")).scores(List.of("zephyr"))[0];
        double common = ScopeWords.of(List.of("zephyr blew", "garden bed", "zephyr again", "zephyr once more")).scores(List.of("zephyr"))[0];

        assertThat(alone).as("the same memory, in a scope where the word is rare").isGreaterThan(common);
    }

    @Test
    void wordsWithMoreTextsScoreAsWordsReadFromAllOfThem() {
        List<String> first = List.of("Caroline's dog barked at the books", "the dog slept", "reading a book in the garden");
        List<String> more = List.of("Caroline reads books", "the garden gate");
        List<String> all = new java.util.ArrayList<>(first);
        all.addAll(more);
        for (boolean stemming : List.of(false, true)) {
            ScopeWords grown = ScopeWords.of(first, stemming).with(more);
            ScopeWords read = ScopeWords.of(all, stemming);
            List<String> query = read.terms("Which books does Caroline's dog like in the garden?");
            assertThat(grown.scores(query)).as("stemming %s", stemming).containsExactly(read.scores(query));
            assertThat(grown.feedbackTerms(List.of(0, 3), 5, query)).isEqualTo(read.feedbackTerms(List.of(0, 3), 5, query));
        }
        ScopeWords base = ScopeWords.of(first, true);
        base.with(more);
        assertThat(base.scores(List.of("gate"))).as("the words grown from are unchanged").containsExactly(0, 0, 0);
    }

    @Test
    void wordsWithTextsLeftOutAndReplacedScoreAsWordsReadFromTheTextsLeft() {
        List<String> texts = List.of("Caroline's dog barked at the books", "the dog slept", "reading a book in the garden",
                "Caroline reads books", "the garden gate", "a dog in the garden");
        // memories 1 and 4 deleted; 2 and 5 given new texts: 0, 2, 3, 5 are left, as 0, 1, 2, 3
        int[] kept = {0, 2, 3, 5};
        Map<Integer, String> replaced = Map.of(2, "the garden gate was painted", 5, "Caroline's cat in the garden");
        List<String> left = List.of(texts.get(0), replaced.get(2), texts.get(3), replaced.get(5));
        for (boolean stemming : List.of(false, true)) {
            ScopeWords edited = ScopeWords.of(texts, stemming).edited(kept, replaced);
            ScopeWords read = ScopeWords.of(left, stemming);
            for (String question : List.of("Which books does Caroline's dog like in the garden?", "painted gate", "dog slept", "cat")) {
                List<String> query = read.terms(question);
                assertThat(edited.scores(query)).as("%s, stemming %s", question, stemming).containsExactly(read.scores(query));
                assertThat(edited.feedbackTerms(List.of(0, 1), 5, query)).isEqualTo(read.feedbackTerms(List.of(0, 1), 5, query));
            }
            assertThat(edited.text(1)).isEqualTo("the garden gate was painted");
        }
        ScopeWords base = ScopeWords.of(texts, true);
        double[] before = base.scores(List.of("slept", "garden"));
        base.edited(kept, replaced);
        assertThat(base.scores(List.of("slept", "garden"))).as("the words edited from are unchanged").containsExactly(before);
        assertThat(base.text(5)).isEqualTo("a dog in the garden");
    }

    @Test
    void anEmptyScopeOrQueryScoresNothing() {
        assertThat(ScopeWords.of(List.of()).scores(List.of("zephyr"))).isEmpty();
        assertThat(ScopeWords.of(List.of("zephyr")).scores(List.of())).containsExactly(0.0);
    }

    @Test
    void feedbackTermsAreTheSeedsTellingWordsThatLeadSomewhere() {
        ScopeWords words = ScopeWords.of(List.of(
                "John visited Seattle: the harbour ferry was lovely", // 0: the seed
                "the harbour ferry in Chicago was lovely too", // 1: shares the seed's words, none of the query's
                "John ate pizza", "John ate pasta", "a quiet evening at home", "rain again in the evening"));

        List<String> terms = words.feedbackTerms(List.of(0), 3, words.terms("which cities has John visited"));

        assertThat(terms).as("the seed's words another memory holds").containsExactlyInAnyOrderElementsOf(words.terms("harbour ferry lovely"));
        assertThat(words.feedbackTerms(List.of(0), 10, words.terms("john visited")))
                .as("never the query's words, a word no other memory holds, a stop word or a short one")
                .doesNotContainAnyElementsOf(words.terms("john visited seattle")).doesNotContain("the", "was");
        assertThat(words.feedbackTerms(List.of(2, 3), 5, List.of())).as("idf summed over the seeds: the rarer shared word first")
                .containsExactly("ate", "john");
        assertThat(words.feedbackTerms(List.of(), 5, List.of())).isEmpty();
    }

    @Test
    void wordsMatchByTheirStem() {
        ScopeWords words = ScopeWords.of(List.of("I finished that book last night", "we won the game, winning feels great",
                "a quiet evening at home", "the weather was grey"), true);

        assertThat(words.scores(words.terms("Which books has John read?"))[0]).as("books -> book").isPositive();
        assertThat(words.scores(words.terms("How many games has John won?"))[1]).as("games -> game").isPositive();
        assertThat(words.scores(List.of("win"))[1]).as("winning -> win").isPositive();
        assertThat(words.scores(words.terms("book books"))[0]).as("one stem counts once")
                .isEqualTo(words.scores(words.terms("book"))[0]);
        assertThat(words.scores(words.terms("weathering"))[3]).as("weathering -> weather").isPositive();
        assertThat(words.scores(words.terms("evenings"))).as("the other memories hold no form of the word")
                .containsExactly(0.0, 0.0, words.scores(words.terms("evening"))[2], 0.0);
        assertThat(ScopeWords.of(List.of("I finished that book")).scores(List.of("books"))[0]).as("words as written").isZero();
    }

    @Test
    void feedbackLeavesOutEveryFormOfTheQuerysWords() {
        ScopeWords words = ScopeWords.of(List.of("Tim loves reading the fantasy books", "those fantasy books again",
                "reading is fun", "tea"), true);

        List<String> terms = words.feedbackTerms(List.of(0), 5, words.terms("what book does Tim read"));

        assertThat(terms).as("'books' and 'reading' are the query's words in other forms")
                .doesNotContainAnyElementsOf(words.terms("books reading")).containsAll(words.terms("the fantasy"));
    }
}
