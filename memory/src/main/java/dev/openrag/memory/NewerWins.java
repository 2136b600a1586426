package dev.openrag.memory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Search signal "newer wins when two memories answer the same question", decided by what the memories and the
 * question mean and by time; no word of any language is listed. Among a search's candidates, a newer memory goes
 * right above an older one when
 * <ul>
 * <li>the two are close in meaning: the cosine of their vectors (the second model's when all have one) is at least
 * {@link Rule#closeness}, and each is the other's nearest on its side of time among the candidates (the newer is the
 * older's nearest later memory, the older the newer's nearest earlier one), so that a memory that only shares a
 * subject with another, beside a closer one, makes no pair; and</li>
 * <li>the question does not prefer the older for what only the older says: its {@link #preference} for the older
 * is at most {@link Rule#margin}. The preference adds three signals: how much more the question is like the older
 * than the newer by the second model's vectors, the same by the first model's (weighted {@value #FIRST_MODEL_WEIGHT}),
 * and how much more the question's character n-grams ({@link TextGrams}) fall in what only the older says than in
 * what only the newer says (weighted {@value #WORDS_WEIGHT}). The last reads words in any script without a stemmer
 * and is what keeps an older memory's other fact in place when an English-trained model reads a question in
 * another language poorly.</li>
 * </ul>
 * Nothing is removed: the older memory follows right after the newer, and a newer memory that only shares a subject
 * with an older one stays below it for a question about the older's other fact, at any k. With {@code asOf} before
 * the newer happened, the newer is no candidate, so the older comes first, as it did then.
 * <p>
 * The weights and thresholds were chosen on held-out pairs in five languages (memory/README.md gives the measured
 * rates, and how often an English-only model tells same-question pairs apart in other languages).
 */
public final class NewerWins {

    /** What the first model's preference counts beside the second's (its cosines spread about four times as wide). */
    static final double FIRST_MODEL_WEIGHT = 0.2;

    /** What a unit of n-gram preference ({@link TextGrams#share}) counts. */
    static final double WORDS_WEIGHT = 0.03;

    /** When a newer memory answers the same question as an older one ({@link NewerWins}). */
    public record Rule(double closeness, double margin) {

        /** The second model's cosine two memories on one question reached in the held-out pairs (unrelated ones reach it too: the nearest condition tells them apart). */
        public static final double DEFAULT_CLOSENESS = 0.77;
        /** The first model's, when the memories have no second vector. */
        public static final double FIRST_MODEL_CLOSENESS = 0.6;
        public static final double DEFAULT_MARGIN = 0.046;
        public static final Rule DEFAULT = new Rule(DEFAULT_CLOSENESS, DEFAULT_MARGIN);
        /** Never fires. */
        public static final Rule OFF = new Rule(2, 0);

        public Rule {
            if (!(closeness >= -1 && closeness <= 2)) {
                throw new IllegalArgumentException("the newer-wins closeness must be a cosine between -1 and 1 (2: off), not " + closeness);
            }
            if (!(margin >= 0 && margin <= 1)) {
                throw new IllegalArgumentException("the newer-wins margin must be between 0 and 1, not " + margin);
            }
        }
    }

    /** A candidate memory: its id, when it happened, its text and vectors (second null: the second model is off). */
    public record Candidate(String id, long happened, String text, float[] first, float[] second) {
    }

    /** The question: its text and vectors (second null: not embedded by the second model). */
    public record Question(String text, float[] first, float[] second) {
    }

    /** A result's place: its id, and the older memory it was placed above ({@code null}: it kept the place it ranked at). */
    public record Placed(String id, String above) {
    }

    private NewerWins() {
    }

    /**
     * {@code ranked} (memory and message ids, best first) with the newer memory of every pair the rule accepts among
     * {@code candidates} placed right above its older one when it ranked below it (several newer ones of one older:
     * the newest first). Pairs are formed from the candidates only: their number is small (k and a few more).
     */
    public static List<Placed> order(List<String> ranked, List<Candidate> candidates, Question question, Rule rule) {
        List<Placed> order = new ArrayList<>(ranked.stream().map(id -> new Placed(id, null)).toList());
        if (question.text() == null || candidates.size() < 2) {
            return order;
        }
        boolean second = question.second() != null && candidates.stream().allMatch(c -> c.second() != null);
        double closeness = second ? rule.closeness() : Math.min(rule.closeness(), Rule.FIRST_MODEL_CLOSENESS);
        // each memory's nearest later and nearest earlier candidate
        Map<String, Candidate> nearestLater = new HashMap<>();
        Map<String, Candidate> nearestEarlier = new HashMap<>();
        Map<String, Double> laterCosine = new HashMap<>();
        Map<String, Double> earlierCosine = new HashMap<>();
        for (Candidate older : candidates) {
            for (Candidate newer : candidates) {
                if (newer.happened() <= older.happened()) {
                    continue;
                }
                double cosine = cosine(vector(older, second), vector(newer, second));
                if (cosine > laterCosine.getOrDefault(older.id(), -2.0)) {
                    laterCosine.put(older.id(), cosine);
                    nearestLater.put(older.id(), newer);
                }
                if (cosine > earlierCosine.getOrDefault(newer.id(), -2.0)) {
                    earlierCosine.put(newer.id(), cosine);
                    nearestEarlier.put(newer.id(), older);
                }
            }
        }
        Set<String> asked = TextGrams.of(question.text());
        Map<String, List<Candidate>> newerOf = new HashMap<>();
        for (Candidate older : candidates) {
            Candidate newer = nearestLater.get(older.id());
            if (newer == null || laterCosine.get(older.id()) < closeness || nearestEarlier.get(newer.id()) != older) {
                continue;
            }
            if (preference(question, asked, older, newer, second) <= rule.margin()) {
                newerOf.computeIfAbsent(older.id(), x -> new ArrayList<>()).add(newer);
            }
        }
        for (String old : ranked) {
            List<Candidate> newer = newerOf.getOrDefault(old, List.of()).stream()
                    .sorted(Comparator.comparingLong(Candidate::happened).reversed()) // each goes right above the older: the newest first
                    .toList();
            for (Candidate candidate : newer) {
                int at = indexOf(order, candidate.id());
                if (at < 0 || at < indexOf(order, old)) {
                    continue; // not among the ranked, or already above
                }
                order.remove(at);
                order.add(indexOf(order, old), new Placed(candidate.id(), old));
            }
        }
        return order;
    }

    /**
     * How much more the question asks for what the older memory says than for what the newer says: the second model's
     * cosine difference (when there are second vectors), the first model's (weighted), and the difference of the
     * question's n-grams in what only each says (weighted).
     */
    static double preference(Question question, Set<String> asked, Candidate older, Candidate newer, boolean second) {
        double first = cosine(question.first(), older.first()) - cosine(question.first(), newer.first());
        double meaning = second ? cosine(question.second(), older.second()) - cosine(question.second(), newer.second()) + FIRST_MODEL_WEIGHT * first
                : (0.25 + FIRST_MODEL_WEIGHT) * first;
        Set<String> olderGrams = TextGrams.of(older.text());
        Set<String> newerGrams = TextGrams.of(newer.text());
        Set<String> onlyOlder = new HashSet<>(olderGrams);
        onlyOlder.removeAll(newerGrams);
        Set<String> onlyNewer = new HashSet<>(newerGrams);
        onlyNewer.removeAll(olderGrams);
        return meaning + WORDS_WEIGHT * (TextGrams.share(asked, onlyOlder) - TextGrams.share(asked, onlyNewer));
    }

    private static float[] vector(Candidate candidate, boolean second) {
        return second ? candidate.second() : candidate.first();
    }

    static double cosine(float[] a, float[] b) {
        if (a == null || b == null || a.length != b.length) {
            return 0;
        }
        double dot = 0;
        double aa = 0;
        double bb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            aa += a[i] * a[i];
            bb += b[i] * b[i];
        }
        return aa == 0 || bb == 0 ? 0 : dot / Math.sqrt(aa * bb);
    }

    private static int indexOf(List<Placed> order, String id) {
        for (int i = 0; i < order.size(); i++) {
            if (order.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
    }
}
