package dev.openrag.memory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.openrag.knowledge.text.FulltextQuery;

/**
 * The earlier memories a new one may replace, as suggestions: never a filter. What an agent stored
 * stays findable for everything it says; only the caller hides a memory ({@code supersedes},
 * update, forget, a correction). A suggestion becomes a {@value Memory#SUGGESTED_SUPERSEDES} link
 * from the new memory, saying which fact changed and why it was read so, for the agent to confirm or
 * dismiss. It does not rank: its rules read English wording ({@link #CUE}, {@link StatedFacts}) and only ever
 * suggest, while search decides by meaning and time which of two memories answers a question first
 * ({@link NewerWins}), in any language. A memory in another language gets no suggestion by rule (the memory LLM
 * role's, where one runs, reads any language).
 * <p>
 * Found offline in two ways:
 * <ul>
 * <li>a fact about a person that holds one value at a time ({@link StatedFacts}: residence, employer,
 * job …) stated with another value than an older memory states;</li>
 * <li>a change cue ({@link #CUE}: English words that say a value changed) in a memory whose nearest older
 * memory by the same author (when both have one) shares at least {@value #SHARED_WORDS} of its words beside
 * the cue (numbers, and a transcript line's date and its own speaker's prefix, aside), or holds the old value
 * the cue names ("switched from A to B"). Questions, wishes and conditions change nothing and are not
 * changed.</li>
 * </ul>
 * The LLM role's answer ({@link LlmContradictions}) becomes suggestions the same way.
 */
public final class FactChanges {

    /** What a suggested supersession says: the older memory, which fact, why, and the fact's word stems. */
    public record Suggestion(String oldId, String fact, String reason, List<String> words) {

        public Memory.Link link() {
            return new Memory.Link(Memory.SUGGESTED_SUPERSEDES, oldId, fact, reason, words);
        }
    }

    /** English words that say a memory changes what an older one says: a trigger for suggestions only, never for ranking. */
    static final Pattern CUE = Pattern.compile("(?i)\\b(?:now|no longer|not any ?more|any ?more|instead|moved|migrated|migrating|"
            + "switched|switching|changed|changing|replaced|update:|updated:|from now on|these days|nowadays)(?![\\p{L}])");
    /** Where a change names the value it ends. */
    private static final Pattern OLD_VALUE = Pattern.compile("(?i)\\b(?:from|instead of|replaced|replacing|no longer (?:uses?|using|runs?|on))"
            + "\\s+(?:the\\s+|an?\\s+)?(?<value>[\\p{L}\\p{N}]+)");
    /** How many words beside the cue a memory and its nearest older one must share to be about the same subject. */
    static final int SHARED_WORDS = 2;
    /** How many of the nearest older memories a cue looks at. */
    static final int CUE_CANDIDATES = 3;

    private FactChanges() {
    }

    /**
     * The suggestions for {@code memory} among {@code nearest} (the scope's current memories nearest to
     * it, best first), read by rule about {@code people}: first the person facts it restates with another
     * value; when there are none and it has a change cue, the nearest older memory on the same subject.
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
        if (!suggestions.isEmpty()) {
            return suggestions;
        }
        String said = StatedFacts.withoutSpeakerPrefix(memory.text(), memory.speaker());
        String cue = cue(said);
        if (cue == null || !StatedFacts.statesSomething(said)) {
            return List.of();
        }
        List<String> named = oldValues(said);
        String author = author(memory);
        for (Memory old : earlier.stream().filter(old -> StatedFacts.statesSomething(StatedFacts.withoutSpeakerPrefix(old.text(), old.speaker())))
                .limit(CUE_CANDIDATES).toList()) {
            String oldAuthor = author(old);
            if (author != null && oldAuthor != null && !author.equals(oldAuthor)) {
                continue; // what one person says changed does not change what another said
            }
            List<String> shared = sharedWords(said, StatedFacts.withoutSpeakerPrefix(old.text(), old.speaker()));
            if (shared.size() >= SHARED_WORDS || shared.stream().anyMatch(named::contains)) {
                return List.of(new Suggestion(old.id(), "what both say of " + String.join(", ", asWritten(said, shared)),
                        "cue '" + cue + "': newer, on the same subject", shared));
            }
        }
        return List.of();
    }

    /** The suggestions for the memories the LLM role read {@code memory} as replacing. */
    public static List<Suggestion> byModel(Memory memory, List<Memory> replaced, String model) {
        return replaced.stream().filter(old -> isEarlier(old, memory)).map(old -> {
            List<String> shared = sharedWords(memory.text(), old.text());
            return new Suggestion(old.id(), shared.isEmpty() ? "a fact both state"
                    : "what both say of " + String.join(", ", asWritten(memory.text(), shared)),
                    "the memory LLM role (" + model + ") read it as a new value of the same fact",
                    shared.isEmpty() ? contentStems(memory.text()) : shared);
        }).toList();
    }

    /** The old value a change names ("switched from Neovim", "instead of bullet points", "replaced Redis"), as stems. */
    static List<String> oldValues(String text) {
        ScopeWords.Stems stems = new ScopeWords.Stems(true);
        List<String> values = new ArrayList<>();
        Matcher m = OLD_VALUE.matcher(text);
        while (m.find()) {
            values.add(stems.of(m.group("value").toLowerCase(java.util.Locale.ROOT)));
        }
        return values;
    }

    /** Whether {@code text} holds a change cue ("now", "migrated", "update:" …). */
    public static boolean hasCue(String text) {
        return cue(text) != null;
    }

    /** The change cue {@code text} holds, lower case, or null. */
    static String cue(String text) {
        Matcher m = CUE.matcher(text);
        return m.find() ? m.group().toLowerCase(java.util.Locale.ROOT) : null;
    }

    /** The content word stems two texts share (change cues aside), in the order of the first. */
    static List<String> sharedWords(String newer, String older) {
        List<String> old = contentStems(older);
        return contentStems(newer).stream().filter(old::contains).toList();
    }

    /** The words of {@code text} whose stems are {@code stems}, as written there (for people to read), each once. */
    private static List<String> asWritten(String text, List<String> stems) {
        ScopeWords.Stems stemmer = new ScopeWords.Stems(true);
        Set<String> seen = new LinkedHashSet<>();
        List<String> words = new ArrayList<>();
        for (String word : FulltextQuery.words(text)) {
            String stem = stemmer.of(word);
            if (stems.contains(stem) && seen.add(stem)) {
                words.add(word);
            }
        }
        return words;
    }

    /** Who wrote a memory: its speaker field; null when it has none (the text is never read for a name). */
    private static String author(Memory memory) {
        return memory.speaker() == null || memory.speaker().isBlank() ? null : MemoryText.key(memory.speaker());
    }

    /**
     * A text's words worth matching ({@link MemoryText#queryTerms}), as stems: cue words, single letters, numbers and the
     * stop words of the text's own language(s) ({@link MemoryWords#isStopWordOf}, Lucene's sets) out.
     */
    static List<String> contentStems(String text) {
        ScopeWords.Stems stems = new ScopeWords.Stems(true);
        Set<String> out = new LinkedHashSet<>();
        java.util.function.Predicate<String> stopWord = MemoryWords.stopWordsOf(text);
        for (String word : FulltextQuery.queryTerms(text)) {
            if (word.length() > 1 && !CUE.matcher(word).matches() && !stopWord.test(word)
                    && !word.chars().allMatch(Character::isDigit)) {
                out.add(stems.of(word));
            }
        }
        return List.copyOf(out);
    }

    /** Every word stem of {@code text} worth matching, cue words included ("moved" is how a residence is written). */
    private static List<String> stems(String text) {
        ScopeWords.Stems stems = new ScopeWords.Stems(true);
        return FulltextQuery.queryTerms(text).stream().map(stems::of).distinct().toList();
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
