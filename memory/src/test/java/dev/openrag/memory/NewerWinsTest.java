package dev.openrag.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.embedding.SecondEmbedder;

/**
 * {@link NewerWins} with the bundled second model (e5-small-v2), on pairs in five languages that
 * name no cue word: an update of the fact the question asks about goes first, a newer fact that shares only its
 * subject with an older one stays below it, an unrelated later memory makes no pair.
 */
class NewerWinsTest {

    private static final SecondEmbedder SECOND = SecondEmbedder.of("e5-small-v2-q");

    private static List<String> ranked(String question, String... olderThenNewer) {
        List<NewerWins.Candidate> candidates = new ArrayList<>();
        List<float[]> seconds = SECOND.passages(List.of(olderThenNewer)).join();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < olderThenNewer.length; i++) {
            ids.add("m" + i);
            candidates.add(new NewerWins.Candidate("m" + i, 1000L * (i + 1), null, olderThenNewer[i], seconds.get(i)));
        }
        NewerWins.Question asked = new NewerWins.Question(question, SECOND.query(question).join());
        return NewerWins.order(ids, candidates, asked, NewerWins.Rule.DEFAULT).stream().map(NewerWins.Placed::id).toList();
    }

    @Test
    void anUpdateInOtherWordsGoesAboveTheFactItRestatesInEachLanguage() {
        assertThat(ranked("What do I drink in the morning?", "I drink two espressos every morning before work.",
                "I quit coffee in May; these days it is only green tea in the morning.")).startsWith("m1", "m0");
        assertThat(ranked("¿Quién es mi dentista?", "Mi dentista es la doctora Ruiz, en la calle Mayor.",
                "Cambié de dentista: ahora voy al doctor Herrera en Chamberí.")).startsWith("m1", "m0");
        assertThat(ranked("我们的办公室在哪里？", "我们的办公室在上海。", "我们的办公室搬到了杭州。")).startsWith("m1", "m0");
        assertThat(ranked("Où est-ce que je fais mes courses ?", "Je fais mes courses au marché du samedi.",
                "Je me fais livrer les courses par le magasin bio du quartier.")).startsWith("m1", "m0");
    }

    @Test
    void aNewerFactThatSharesOnlyTheSubjectStaysBelowTheOlderFactAskedAbout() {
        assertThat(ranked("Which instrument does Jonas play?", "Jonas works at Siemens and plays the trumpet in a brass band.",
                "Jonas now works at Bosch.")).startsWith("m0");
        assertThat(ranked("Was sammelt Felix?", "Felix arbeitet als Koch und sammelt alte Schallplatten.",
                "Felix arbeitet jetzt in einer Bäckerei.")).startsWith("m0");
        assertThat(ranked("Welches Instrument spielt Klara?", "Klara spielt Geige im Orchester und arbeitet als Lehrerin.",
                "Klara arbeitet als Schulleiterin.")).startsWith("m0");
        assertThat(ranked("小明演奏什么乐器？", "小明在乐队里吹小号，在银行工作。", "小明在一家保险公司工作。")).startsWith("m0");
        // control: the question about the fact the newer one restates puts it first
        assertThat(ranked("Where does Jonas work?", "Jonas works at Siemens and plays the trumpet in a brass band.",
                "Jonas now works at Bosch.")).startsWith("m1");
    }

    @Test
    void anUnrelatedLaterMemoryMakesNoPairAndAQuestionWithoutTextMovesNothing() {
        assertThat(ranked("What sits in front of the billing service?", "Nginx works as a reverse proxy in front of the billing service.",
                "Nginx works as a load balancer for the search API.")).startsWith("m0");
        assertThat(NewerWins.order(List.of("a", "b"), List.of(), new NewerWins.Question(null, null), NewerWins.Rule.DEFAULT))
                .extracting(NewerWins.Placed::id).containsExactly("a", "b");
    }

    @Test
    void anotherSpeakersLaterMemoryMakesNoPair() {
        List<float[]> vectors = SECOND.passages(List.of("I live in Leeds.", "I live in Hull.")).join();
        NewerWins.Question asked = new NewerWins.Question("Where do I live?", SECOND.query("Where do I live?").join());
        List<NewerWins.Candidate> apart = List.of(new NewerWins.Candidate("a", 1, "ann", "I live in Leeds.", vectors.get(0)),
                new NewerWins.Candidate("b", 2, null, "I live in Hull.", vectors.get(1)));
        assertThat(NewerWins.order(List.of("a", "b"), apart, asked, NewerWins.Rule.DEFAULT)).extracting(NewerWins.Placed::id)
                .containsExactly("a", "b");
        List<NewerWins.Candidate> same = List.of(new NewerWins.Candidate("a", 1, "ann", "I live in Leeds.", vectors.get(0)),
                new NewerWins.Candidate("b", 2, "ann", "I live in Hull.", vectors.get(1)));
        assertThat(NewerWins.order(List.of("a", "b"), same, asked, NewerWins.Rule.DEFAULT)).as("control: one speaker")
                .extracting(NewerWins.Placed::id).containsExactly("b", "a");
    }

    /** A unit vector at {@code degrees} from the first axis, in the plane of the first two (cosines set by the angles). */
    private static float[] at(double degrees) {
        float[] vector = new float[8];
        vector[0] = (float) Math.cos(Math.toRadians(degrees));
        vector[1] = (float) Math.sin(Math.toRadians(degrees));
        return vector;
    }

    @Test
    void aMemoryMakesOnePairEachWayTheClosestSoLaterTurnsOfAThreadAreNotAllPulledAboveTheOneAsked() {
        // o and two later turns of one thread on either side of it, close to it and to each other: every pair passes the
        // rule, but only o's closest newer (n1) goes above it; n2's closest older is o, which took n1, so n2 keeps its place
        NewerWins.Question asked = new NewerWins.Question("zz", at(0));
        NewerWins.Rule rule = new NewerWins.Rule(0.9, 0.05);
        List<NewerWins.Candidate> star = List.of(new NewerWins.Candidate("o", 1, null, "aa", at(0)),
                new NewerWins.Candidate("x", 2, null, "bb", at(80)),
                new NewerWins.Candidate("n1", 3, null, "cc", at(1)),
                new NewerWins.Candidate("n2", 4, null, "dd", at(-1.5)));
        assertThat(NewerWins.order(List.of("o", "x", "n1", "n2"), star, asked, rule)).extracting(NewerWins.Placed::id)
                .containsExactly("n1", "o", "x", "n2");
        // control: a chain of updates, each the closest of the one before and after it, moves each above the one it replaced
        List<NewerWins.Candidate> chain = List.of(new NewerWins.Candidate("a", 1, null, "aa", at(0)),
                new NewerWins.Candidate("x", 2, null, "bb", at(80)),
                new NewerWins.Candidate("b", 3, null, "cc", at(1)),
                new NewerWins.Candidate("c", 4, null, "dd", at(2)));
        assertThat(NewerWins.order(List.of("a", "x", "b", "c"), chain, asked, rule)).extracting(NewerWins.Placed::id)
                .containsExactly("c", "b", "a", "x");
    }

    @Test
    void aValueThatChangesBackPutsTheNewestAboveBothOlderOnesWhicheverRankedFirst() {
        // a, then b, then a2 closest to a (the value went back): a2 pairs with a only, and goes above b too
        NewerWins.Question asked = new NewerWins.Question("zz", at(0));
        NewerWins.Rule rule = new NewerWins.Rule(0.9, 0.05);
        List<NewerWins.Candidate> back = List.of(new NewerWins.Candidate("a", 1, null, "aa", at(0)),
                new NewerWins.Candidate("b", 2, null, "bb", at(5)),
                new NewerWins.Candidate("x", 3, null, "xx", at(80)),
                new NewerWins.Candidate("a2", 4, null, "cc", at(1)));
        assertThat(NewerWins.order(List.of("b", "a", "x", "a2"), back, asked, rule)).extracting(NewerWins.Placed::id)
                .containsExactly("a2", "b", "a", "x");
        assertThat(NewerWins.order(List.of("a", "b", "x", "a2"), back, asked, rule)).extracting(NewerWins.Placed::id)
                .containsExactly("a2", "a", "b", "x");
        // control: a middle memory that is no pair of the newest (too far from it) keeps its place above
        List<NewerWins.Candidate> apart = List.of(new NewerWins.Candidate("a", 1, null, "aa", at(0)),
                new NewerWins.Candidate("b", 2, null, "bb", at(-24)),
                new NewerWins.Candidate("x", 3, null, "xx", at(80)),
                new NewerWins.Candidate("a2", 4, null, "cc", at(1)));
        assertThat(NewerWins.order(List.of("b", "a", "x", "a2"), apart, asked, rule)).extracting(NewerWins.Placed::id)
                .containsExactly("b", "a2", "a", "x");
    }

    @Test
    void aValueThatChangesBackInWordsRanksTheNewestFirstInEachLanguage() {
        // the middle value ranked first (as when the question's words match it best): the newest still comes first
        assertThat(rankedAs(List.of(1, 0, 2), "When is the team meeting?", "The team meeting is on Tuesdays.",
                "The team meeting is on Thursdays now.", "The team meeting is on Tuesdays again.")).containsExactly("m2", "m1", "m0");
        assertThat(rankedAs(List.of(1, 0, 2), "Wann ist das Team-Meeting?", "Das Team-Meeting ist dienstags.",
                "Das Team-Meeting ist jetzt donnerstags.", "Das Team-Meeting ist wieder dienstags.")).containsExactly("m2", "m1", "m0");
        assertThat(rankedAs(List.of(1, 0, 2), "Wo ist unser Büro?", "Unser Büro ist in Hamburg.", "Unser Büro ist nach Berlin umgezogen.",
                "Unser Büro ist wieder nach Hamburg umgezogen.")).containsExactly("m2", "m1", "m0");
        assertThat(rankedAs(List.of(1, 0, 2), "我们的办公室在哪里？", "我们的办公室在上海。", "现在我们的办公室在杭州。",
                "现在我们的办公室又回到上海了。")).containsExactly("m2", "m1", "m0");
        // control: asOf before the value went back (the newest no candidate), the middle value is the newest and first
        assertThat(rankedAs(List.of(1, 0), "Wann ist das Team-Meeting?", "Das Team-Meeting ist dienstags.",
                "Das Team-Meeting ist jetzt donnerstags.")).startsWith("m1");
    }

    /** {@link #ranked} with the memories ranked in the order {@code order} gives (indexes into {@code olderThenNewer}). */
    private static List<String> rankedAs(List<Integer> order, String question, String... olderThenNewer) {
        List<NewerWins.Candidate> candidates = new ArrayList<>();
        List<float[]> seconds = SECOND.passages(List.of(olderThenNewer)).join();
        for (int i = 0; i < olderThenNewer.length; i++) {
            candidates.add(new NewerWins.Candidate("m" + i, 1000L * (i + 1), null, olderThenNewer[i], seconds.get(i)));
        }
        NewerWins.Question asked = new NewerWins.Question(question, SECOND.query(question).join());
        return NewerWins.order(order.stream().map(i -> "m" + i).toList(), candidates, asked, NewerWins.Rule.DEFAULT).stream()
                .map(NewerWins.Placed::id).toList();
    }
}
