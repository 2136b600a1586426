package dev.openrag.memory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The earlier memories a new one may replace, as suggestions: never a filter. What an agent stored
 * stays findable for everything it says; only the caller hides a memory ({@code supersedes},
 * update, forget, a correction). A suggestion becomes a {@value Memory#SUGGESTED_SUPERSEDES} link
 * from the new memory, saying which fact changed and why it was read so, for the agent to confirm or
 * dismiss. It does not rank: search decides by meaning and time which of two memories answers a question
 * first ({@link NewerWins}).
 * <p>
 * Found offline in two ways:
 * <ul>
 * <li>a fact about a person that holds one value at a time ({@link StatedFacts}: residence, employer,
 * job …) stated with another value than an older memory states. These are English sentence patterns: in other
 * languages only the second way, or the memory LLM role, finds such a change;</li>
 * <li>by meaning, in any language ({@link #byMeaning}): the new memory's nearest older memory by the same author (both
 * without one, or the same one, as {@link NewerWins} pairs them) is close to it in meaning (second-model cosine at
 * least {@value #CLOSENESS}) and says the same fact: it shares a subject and what is said of it (two content words or
 * more), or one content word while the first model reads the pair close too, each text read in its own language
 * ({@link MemoryWords#contentTerms}: Snowball stems, CJK bigrams). No word says that a value changed: a
 * restatement of a fact in other words, months later, reads the same in English, German, Spanish, French or Chinese.
 * Questions change nothing and are not changed.</li>
 * </ul>
 * The meaning rule is as good as the two English-trained models: it tells an update from a newer fact that shares only
 * its subject with an older one in most English, German, Spanish and French pairs and in few Chinese ones, which both
 * read close (memory/README.md gives the measured rates). A wrong suggestion costs the agent a look and ranks nothing.
 * The LLM role's answer ({@link LlmContradictions}) becomes suggestions the same way.
 */
public final class FactChanges {

    /** What a suggested supersession says: the older memory, which fact, why, and the fact's word stems. */
    public record Suggestion(String oldId, String fact, String reason, List<String> words) {

        public Memory.Link link() {
            return new Memory.Link(Memory.SUGGESTED_SUPERSEDES, oldId, fact, reason, words);
        }
    }

    /** An older memory as the meaning rule reads it: with its first- and second-model vectors (null: none). */
    public record Near(Memory memory, float[] first, float[] second) {
    }

    /**
     * The second-model cosine from which a new memory and its nearest older one say the same fact. Chosen on update
     * pairs and same-subject pairs of another fact in five languages (memory/README.md): updates in other words
     * measured 0.78-0.98, another fact of the same person 0.74-0.93 (higher in Chinese, where the English-trained
     * model reads every pair closer); 0.82 keeps most updates and drops most English other-fact pairs.
     */
    static final double CLOSENESS = 0.82;

    /**
     * The first-model cosine from which a pair that shares one content word (its subject, alone, in most pairs that
     * say another fact of it) is read as an update too. Both models were trained on English; the first reads other
     * languages less close than the second does, so their agreement is what tells an update there. Chosen on the pairs
     * of {@code SuggestionPairs} (memory/README.md): updates with one shared word measured 0.70-0.92, other facts of the
     * same subject 0.60-0.92 (0.73-0.80 in German, 0.77-0.92 in Chinese).
     */
    static final double AGREEMENT = 0.74;

    /** How many of the nearest older memories the meaning rule compares the new one with. */
    public static final int NEAREST = 5;

    private FactChanges() {
    }

    /**
     * The suggestions for {@code memory} among {@code nearest} (the scope's current memories nearest to it, best
     * first), read by rule about {@code people}: the person facts it restates with another value ({@link StatedFacts},
     * English). The meaning rule is {@link #byMeaning}.
     */
    public static List<Suggestion> byRules(Memory memory, List<Memory> nearest, StatedFacts.People people) {
        List<Memory> earlier = nearest.stream().filter(old -> isEarlier(old, memory)).toList();
        List<Suggestion> suggestions = new ArrayList<>();
        List<StatedFacts.Fact> stated = StatedFacts.of(memory.text(), memory.speaker(), people);
        for (Memory old : earlier) {
            List<StatedFacts.Fact> oldFacts = StatedFacts.of(old.text(), old.speaker(), people);
            for (StatedFacts.Fact fact : stated) {
                StatedFacts.Fact replaced = oldFacts.stream().filter(oldFact -> StatedFacts.replaces(fact, oldFact)).findFirst().orElse(null);
                if (replaced != null) {
                    suggestions.add(new Suggestion(old.id(), describe(fact, replaced),
                            "rules: a newer statement of the " + fact.attribute() + " of " + fact.subject() + " with another value",
                            stems(StatedFacts.cues(fact) + " " + ASKED.getOrDefault(fact.attribute(), "") + " " + fact.attribute()
                                    + " " + fact.value() + " " + replaced.value() + " " + namedSubject(fact))));
                    break;
                }
            }
        }
        return suggestions;
    }

    /**
     * The suggestion for {@code memory} (its first- and second-model vectors {@code first} and {@code second}) by
     * meaning: of {@code nearest} (older memories with their vectors), the closest by the same author by the second
     * model ({@link NewerWins#cosine}), when it is at least {@value #CLOSENESS} close and the two say the same fact: they
     * share content words in their own language, two or more (a subject and what is said of it), or one while the
     * first model reads the pair at least {@value #AGREEMENT} close too. A memory that shares only its subject with an
     * older one says another fact of it. None for a memory that asks something, nor for one without a second vector.
     */
    public static List<Suggestion> byMeaning(Memory memory, float[] first, float[] second, List<Near> nearest) {
        String said = StatedFacts.withoutSpeakerPrefix(memory.text(), memory.speaker());
        if (second == null || !StatedFacts.statesSomething(said)) {
            return List.of();
        }
        String author = author(memory);
        Near closest = null;
        double closeness = Double.NEGATIVE_INFINITY;
        for (Near old : nearest) {
            if (old.second() == null || !isEarlier(old.memory(), memory) || !Objects.equals(author, author(old.memory()))) {
                continue; // what one person says changed does not change what another said
            }
            double cosine = NewerWins.cosine(second, old.second());
            if (cosine > closeness) {
                closeness = cosine;
                closest = old;
            }
        }
        if (closest == null || closeness < CLOSENESS) {
            return List.of();
        }
        String oldSaid = StatedFacts.withoutSpeakerPrefix(closest.memory().text(), closest.memory().speaker());
        if (!StatedFacts.statesSomething(oldSaid)) {
            return List.of();
        }
        Map<String, String> shared = sharedTerms(said, oldSaid);
        int words = MemoryWords.wordsAmong(said, shared.keySet());
        if (words == 0 || words == 1 && !(first != null && closest.first() != null
                && NewerWins.cosine(first, closest.first()) >= AGREEMENT)) {
            return List.of();
        }
        return List.of(new Suggestion(closest.memory().id(), "what both say of " + String.join(", ", shared.values()),
                String.format(Locale.ROOT, "meaning: newer, by the same author, close in meaning (%.2f) and on the same subject",
                        closeness), List.copyOf(shared.keySet())));
    }

    /** The suggestions for the memories the LLM role read {@code memory} as replacing. */
    public static List<Suggestion> byModel(Memory memory, List<Memory> replaced, String model) {
        return replaced.stream().filter(old -> isEarlier(old, memory)).map(old -> {
            Map<String, String> shared = sharedTerms(memory.text(), old.text());
            return new Suggestion(old.id(), shared.isEmpty() ? "a fact both state"
                    : "what both say of " + String.join(", ", shared.values()),
                    "the memory LLM role (" + model + ") read it as a new value of the same fact",
                    shared.isEmpty() ? stems(memory.text()) : List.copyOf(shared.keySet()));
        }).toList();
    }

    /** The content terms two texts share ({@link MemoryWords#contentTerms}), in the order of the first, each with its word there. */
    static Map<String, String> sharedTerms(String newer, String older) {
        Map<String, String> old = MemoryWords.contentTerms(older);
        Map<String, String> shared = new LinkedHashMap<>(MemoryWords.contentTerms(newer));
        shared.keySet().retainAll(old.keySet());
        return shared;
    }

    /** The content word stems two texts share, in the order of the first. */
    static List<String> sharedWords(String newer, String older) {
        return List.copyOf(sharedTerms(newer, older).keySet());
    }

    /** Who wrote a memory: its speaker field; null when it has none (the text is never read for a name). */
    private static String author(Memory memory) {
        return memory.speaker() == null || memory.speaker().isBlank() ? null : MemoryText.key(memory.speaker());
    }

    /** Every content word stem of {@code text}, read in its own language ({@link MemoryWords#contentTerms}). */
    private static List<String> stems(String text) {
        return List.copyOf(MemoryWords.contentTerms(text).keySet());
    }

    /** The words a question about a person's fact of each kind is asked with, beside those the fact is written with. */
    private static final Map<String, String> ASKED = Map.of(
            StatedFacts.RESIDENCE, "home city town country reside move address",
            StatedFacts.EMPLOYER, "company employer job employ",
            StatedFacts.JOB, "job role profession occupation career",
            StatedFacts.AGE, "old age birthday born",
            StatedFacts.RELATIONSHIP, "partner relationship wife husband wedding");

    /** A named subject's words: a question naming the person asks about their fact. The speaker and the user are no words of a text. */
    private static String namedSubject(StatedFacts.Fact fact) {
        return fact.subject().equals("i") || fact.subject().equals("user") ? "" : fact.subject();
    }

    private static String describe(StatedFacts.Fact fact, StatedFacts.Fact replaced) {
        return fact.attribute() + " of " + fact.subject() + ": " + replaced.value() + (fact.ended() ? ", ended" : " → " + fact.value());
    }

    private static boolean isEarlier(Memory old, Memory memory) {
        return !old.id().equals(memory.id()) && happened(old) <= happened(memory);
    }

    private static long happened(Memory memory) {
        return memory.occurredAt() != null ? memory.occurredAt() : memory.createdAt();
    }
}
