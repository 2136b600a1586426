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
 * right above an older one of the same speaker (or both without one) when
 * <ul>
 * <li>the question is about them: one of the two is within {@value #RELEVANCE} (second-model cosine) of the candidate
 * the question is nearest to;</li>
 * <li>the two are close in meaning: the cosine of their second-model vectors is at least {@link Rule#closeness};
 * and</li>
 * <li>the question does not prefer the older for what only the older says: its {@link #preference} for the older
 * is at most {@link Rule#margin}. The preference adds two signals: how much more the question is like the older
 * than the newer by the second model's vectors, and how much more the question's character n-grams
 * ({@link TextGrams}) fall in what only the older says than in what only the newer says (weighted
 * {@value #WORDS_WEIGHT}). The second reads words in any script without a stemmer, and keeps an older memory's other
 * fact in place where an English-trained model reads a question in another language poorly.</li>
 * </ul>
 * The first model is not read: it may be any provider's, while the second is the bundled e5-small-v2, whose cosines
 * the thresholds are measured on. Without second vectors (the second model off) nothing moves.
 * <p>
 * Each memory makes at most one pair each way: of the pairs the rule accepts, a newer memory goes above only the older it
 * is closest to, and an older memory takes only its closest newer one (mutual nearest). An update replaces one memory;
 * a conversation that keeps returning to a topic makes many close pairs, and moving each of them pulled later turns
 * of a thread above the turn a question was about (LoCoMo recall@10 0.8154 with the rule off, 0.7672 with every pair,
 * 0.8134 with mutual pairs; the agent-memory scenarios 90, 94 and 95 of 114: docs/benchmarks.md). A value that changes
 * and changes back (A, B, then A' closest to A) pairs A' with A only; A' then also goes above B when B pairs with both,
 * so that the newest comes first whichever of the older two ranked higher.
 * <p>
 * Nothing is removed: the older memory follows right after the newer, and a newer memory that only shares a subject
 * with an older one stays below it for a question about the older's other fact, at any k. With {@code asOf} before
 * the newer happened, the newer is no candidate, so the older comes first, as it did then.
 * <p>
 * The thresholds were chosen on pairs in five languages apart from the scenario suite's (memory/README.md gives the
 * measured rates, and where an English-only model falls short in other languages).
 */
public final class NewerWins {

    /** How far below the question's nearest candidate (second-model cosine) a pair may be and still be what the question asks about. */
    static final double RELEVANCE = 0.02;

    /** What a unit of n-gram preference ({@link TextGrams#share}) counts beside a unit of cosine. */
    static final double WORDS_WEIGHT = 0.02;

    /** When a newer memory answers the same question as an older one ({@link NewerWins}). */
    public record Rule(double closeness, double margin) {

        public static final double DEFAULT_CLOSENESS = 0.77;
        public static final double DEFAULT_MARGIN = 0.024;
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

    /** A candidate memory: its id, when it happened, who said it (null: nobody named), its text and second-model vector. */
    public record Candidate(String id, long happened, String speaker, String text, float[] second) {
    }

    /** The question: its text and second-model vector (null: not embedded by the second model). */
    public record Question(String text, float[] second) {
    }

    /** A result's place: its id, and the older memory it was placed above ({@code null}: it kept the place it ranked at). */
    public record Placed(String id, String above) {
    }

    private NewerWins() {
    }

    /**
     * {@code ranked} (memory and message ids, best first) with the newer memory of every pair the rule accepts among
     * {@code candidates} placed right above its older one when it ranked below it (mutually nearest pairs only, so a
     * chain of updates usually moves each above the one it replaced; the newest of a chain whose last value reverts goes
     * above the middle one too: {@link #withChains}). Pairs are formed from the candidates only: their
     * number is small (k and a few more).
     */
    public static List<Placed> order(List<String> ranked, List<Candidate> candidates, Question question, Rule rule) {
        List<Placed> order = new ArrayList<>(ranked.stream().map(id -> new Placed(id, null)).toList());
        if (question.text() == null || question.second() == null || candidates.size() < 2) {
            return order;
        }
        Set<String> asked = TextGrams.of(question.text());
        // only a pair the question is about: one of the two is within RELEVANCE of the candidate the question is nearest to
        // (two memories of one subject that both answer another question, e.g. two facts of a person, make no pair)
        double best = candidates.stream().filter(c -> c.second() != null).mapToDouble(c -> cosine(question.second(), c.second()))
                .max().orElse(1);
        Map<String, List<Candidate>> newerOf = new HashMap<>();
        for (Candidate older : candidates) {
            for (Candidate newer : candidates) {
                if (newer.happened() <= older.happened() || older.second() == null || newer.second() == null
                        || !java.util.Objects.equals(older.speaker(), newer.speaker())) {
                    continue; // what one person says changed does not change what another said
                }
                double relevance = Math.max(cosine(question.second(), older.second()), cosine(question.second(), newer.second()));
                if (relevance >= best - RELEVANCE && cosine(older.second(), newer.second()) >= rule.closeness()
                        && preference(question, asked, older, newer) <= rule.margin()) {
                    newerOf.computeIfAbsent(older.id(), x -> new ArrayList<>()).add(newer);
                }
            }
        }
        newerOf = withChains(mutuallyNearest(newerOf, candidates), newerOf, candidates);
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
     * Of the accepted pairs ({@code newerOf}: older id → its newer candidates), those whose two memories are each
     * other's closest (second-model cosine) among the accepted pairs: each older memory keeps one newer, each newer
     * goes above one older.
     */
    private static Map<String, List<Candidate>> mutuallyNearest(Map<String, List<Candidate>> newerOf, List<Candidate> candidates) {
        Map<String, String> closestOlder = new HashMap<>();
        Map<String, Double> closestOlderCosine = new HashMap<>();
        Map<String, Candidate> closestNewer = new HashMap<>();
        Map<String, Double> closestNewerCosine = new HashMap<>();
        // in the candidates' order, so that a tie goes the same way however the pool was read
        for (Candidate older : candidates) {
            for (Candidate newer : newerOf.getOrDefault(older.id(), List.of())) {
                double closeness = cosine(older.second(), newer.second());
                if (closeness > closestOlderCosine.getOrDefault(newer.id(), Double.NEGATIVE_INFINITY)) {
                    closestOlderCosine.put(newer.id(), closeness);
                    closestOlder.put(newer.id(), older.id());
                }
                if (closeness > closestNewerCosine.getOrDefault(older.id(), Double.NEGATIVE_INFINITY)) {
                    closestNewerCosine.put(older.id(), closeness);
                    closestNewer.put(older.id(), newer);
                }
            }
        }
        Map<String, List<Candidate>> mutual = new HashMap<>();
        closestNewer.forEach((older, newer) -> {
            if (older.equals(closestOlder.get(newer.id()))) {
                mutual.put(older, List.of(newer));
            }
        });
        return mutual;
    }

    /**
     * The mutual pairs ({@code mutual}: older id → its newer) with the newest of each chain above its middle too: when
     * a memory that came between the two of a mutual pair is, among the accepted pairs ({@code accepted}), closest to the
     * older on one side and to the newer on the other (A, then B, then A' closest to A: a value changed and changed
     * back), the newest goes above that middle one also. Else the middle one, ranked above the older, stayed above the
     * newest. A memory that pairs with both but is closer to another (where every pair reads close, as Chinese does to
     * an English-trained model) is no middle of theirs.
     */
    private static Map<String, List<Candidate>> withChains(Map<String, List<Candidate>> mutual, Map<String, List<Candidate>> accepted,
                                                          List<Candidate> candidates) {
        Map<String, List<Candidate>> placed = new HashMap<>();
        mutual.forEach((older, newer) -> placed.put(older, new ArrayList<>(newer)));
        for (Candidate older : candidates) {
            for (Candidate latest : mutual.getOrDefault(older.id(), List.of())) {
                for (Candidate middle : accepted.getOrDefault(older.id(), List.of())) {
                    if (middle.happened() < latest.happened() && closest(middle, accepted.getOrDefault(middle.id(), List.of())) == latest
                            && closest(middle, candidates.stream().filter(c -> accepted.getOrDefault(c.id(), List.of()).contains(middle))
                                    .toList()) == older) {
                        placed.computeIfAbsent(middle.id(), x -> new ArrayList<>()).add(latest);
                    }
                }
            }
        }
        return placed;
    }

    /** Of {@code others}, the one closest to {@code to} (second-model cosine; the first of a tie); null for none. */
    private static Candidate closest(Candidate to, List<Candidate> others) {
        Candidate closest = null;
        double best = Double.NEGATIVE_INFINITY;
        for (Candidate other : others) {
            double cosine = cosine(to.second(), other.second());
            if (cosine > best) {
                best = cosine;
                closest = other;
            }
        }
        return closest;
    }

    /**
     * How much more the question asks for what the older memory says than for what the newer says: the second model's
     * cosine difference, and the difference of the question's n-grams in what only each says (weighted).
     */
    static double preference(Question question, Set<String> asked, Candidate older, Candidate newer) {
        Set<String> olderGrams = TextGrams.of(older.text());
        Set<String> newerGrams = TextGrams.of(newer.text());
        Set<String> onlyOlder = new HashSet<>(olderGrams);
        onlyOlder.removeAll(newerGrams);
        Set<String> onlyNewer = new HashSet<>(newerGrams);
        onlyNewer.removeAll(olderGrams);
        return cosine(question.second(), older.second()) - cosine(question.second(), newer.second())
                + WORDS_WEIGHT * (TextGrams.share(asked, onlyOlder) - TextGrams.share(asked, onlyNewer));
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
