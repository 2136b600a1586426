package dev.openrag.memory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.openrag.knowledge.text.FulltextQuery;

/**
 * The named things a memory mentions — people, places, organisations, named events — found offline
 * by rule: runs of capitalised words ("Jolene", "Lake Tahoe", "LGBTQ", "Bank of America"). Greetings
 * and function words are never part of a run ("Hey Mel" → "Mel"); a lone capitalised word opening a
 * sentence is a name only when it is not one of the common English words that start sentences
 * ("Jolene adopted …" yes, "Went to …" no), and even then an uncertain one: search follows an
 * entity from a hit only once some memory has written it with a capital mid-sentence. Months, days,
 * pronouns, greetings and the memory's own speaker are never entities (time and speaker are
 * fields of their own). Memories that mention the same entity are linked through it
 * ({@code (:Memory)-[:MENTIONS]->(:MemoryEntity)}), which memory search follows.
 */
public final class MemoryEntities {

    /**
     * An entity: {@code key} is how it is matched (lower case, single spaces), {@code name} how it was
     * written; {@code certain} unless its only capital could be the sentence's ("Weekly note 3: …").
     */
    public record Entity(String key, String name, boolean certain) {
    }

    public static final int MAX_PER_MEMORY = 16;

    private static final Pattern SENTENCES = Pattern.compile("[^.!?:;\\n\"“”()\\[\\]]+");
    private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’&-]*");
    private static final Set<String> CONNECTORS = Set.of("of", "de", "la", "von", "van");
    private static final Set<String> NEVER = Stream.of(
                    Set.of("i", "i'm", "i've", "i'll", "i'd", "im", "ive", "ill", "id",
                            "hey", "hi", "hello", "thanks", "thank", "wow", "yes", "yeah", "yep", "no", "nope", "oh", "ok", "okay",
                            "sure", "congrats", "congratulations", "great", "awesome", "good", "nice", "cool", "well", "also", "just",
                            "really", "btw", "lol", "omg", "haha", "dear", "sorry", "please", "let", "let's", "glad", "love", "happy",
                            "totally", "definitely", "absolutely", "amazing", "sounds", "that's", "it's", "what's", "you're", "we're",
                            "they're", "there's", "here", "here's", "now", "not", "all", "one", "last", "next", "today", "tomorrow",
                            "yesterday", "am", "pm", "mr", "mrs", "ms", "dr"),
                    Set.of("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                            "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
                    FulltextQuery.STOP_WORDS)
            .flatMap(Set::stream).collect(Collectors.toUnmodifiableSet());

    /** Common English words that open sentences with a capital only because they come first. */
    private static final Set<String> COMMON = Set.of(
            "after", "again", "ah", "almost", "already", "always", "another", "anyway", "anything", "appreciate", "around",
            "away", "back", "bad", "because", "before", "being", "best", "better", "both", "bought", "brought", "call",
            "called", "came", "can't", "check", "come", "coming", "could've", "couldn't", "cute", "didn't", "doing",
            "don't", "done", "during", "each", "easy", "either", "enjoy", "enjoyed", "even", "ever", "every",
            "everyone", "everything", "exactly", "excited", "fantastic", "feel", "feeling", "felt", "finally", "find",
            "first", "found", "friends", "fun", "funny", "gave", "get", "getting", "give", "go", "going", "gonna",
            "got", "guess", "had", "hang", "has", "hate", "have", "haven't", "having", "he's", "hope", "hopefully",
            "however", "i'd", "imagine", "indeed", "interesting", "isn't", "keep", "kind", "knew", "know", "later",
            "learned", "left", "life", "like", "liked", "little", "living", "long", "look", "looked", "looking",
            "looks", "lot", "lots", "loved", "made", "make", "making", "many", "maybe", "mine", "more", "most",
            "much", "must", "need", "never", "new", "nothing", "often", "old", "once", "only", "other", "others",
            "our", "out", "over", "own", "people", "perfect", "planning", "plus", "pretty", "probably", "quite",
            "rather", "ready", "remember", "right", "said", "same", "saw", "say", "see", "seeing", "seems", "seen",
            "she's", "should", "since", "sometimes", "soon", "sorry", "speaking", "spent", "started", "still",
            "stuff", "such", "super", "take", "taking", "talk", "talking", "tell", "that'll", "thing", "things",
            "think", "thinking", "though", "thought", "through", "time", "times", "together", "told", "too", "took",
            "tried", "true", "try", "trying", "two", "understand", "until", "up", "us", "use", "used", "very",
            "wanna", "want", "wanted", "wasn't", "watch", "way", "went", "whatever", "while", "wish", "without",
            "wonderful", "won't", "work", "working", "worked", "would've", "wouldn't", "write", "wrote", "yours",
            "yourself", "absolutely", "agreed", "anytime", "bye", "cheers", "exciting", "hmm", "huh", "incredible",
            "lovely", "oops", "seriously", "sweet", "welcome", "whoa", "yay", "yup");

    private MemoryEntities() {
    }

    /** The entities {@code text} mentions, in order of first mention, at most {@value #MAX_PER_MEMORY}; never {@code speaker}. */
    public static List<Entity> of(String text, String speaker) {
        String speakerKey = MemoryText.key(speaker);
        Map<String, Entity> entities = new LinkedHashMap<>();
        Matcher sentence = SENTENCES.matcher(text);
        while (sentence.find() && entities.size() < MAX_PER_MEMORY) {
            for (Run run : capitalisedRuns(sentence.group())) {
                String name = String.join(" ", run.words());
                String key = MemoryText.key(name);
                if (!key.isEmpty() && !key.equals(speakerKey) && (entities.size() < MAX_PER_MEMORY || entities.containsKey(key))) {
                    Entity before = entities.get(key);
                    entities.put(key, new Entity(key, before == null ? name : before.name(),
                            run.certain() || before != null && before.certain()));
                }
            }
        }
        return List.copyOf(entities.values());
    }

    private record Run(List<String> words, boolean certain) {
    }

    private static List<Run> capitalisedRuns(String sentence) {
        List<Run> runs = new ArrayList<>();
        List<String> run = new ArrayList<>();
        boolean sentenceStart = true;
        boolean runOpensSentence = false;
        int previousEnd = -1;
        Matcher token = TOKEN.matcher(sentence);
        while (token.find()) {
            String word = stripPossessive(token.group());
            boolean adjacent = previousEnd >= 0 && sentence.substring(previousEnd, token.start()).isBlank();
            boolean capitalised = Character.isUpperCase(word.codePointAt(0)) && !NEVER.contains(word.toLowerCase(Locale.ROOT));
            if (capitalised && (run.isEmpty() || adjacent)) {
                if (run.isEmpty()) {
                    runOpensSentence = sentenceStart;
                }
                run.add(word);
            } else if (!run.isEmpty() && adjacent && CONNECTORS.contains(word)) {
                run.add(word);
            } else {
                close(run, runOpensSentence, runs);
                run = new ArrayList<>();
                if (capitalised) {
                    runOpensSentence = false;
                    run.add(word);
                }
            }
            // only the first word opens the sentence: after "Hey" or "Thanks", "Mel" is a name, not a capital
            sentenceStart = false;
            previousEnd = token.end();
        }
        close(run, runOpensSentence, runs);
        return runs;
    }

    /**
     * Adds a finished run: trailing connectors dropped; a lone common word that opened its sentence
     * left out, any other lone word there kept as uncertain.
     */
    private static void close(List<String> run, boolean opensSentence, List<Run> runs) {
        while (!run.isEmpty() && CONNECTORS.contains(run.get(run.size() - 1))) {
            run.remove(run.size() - 1);
        }
        boolean lone = opensSentence && run.size() == 1;
        if (!run.isEmpty() && !(lone && COMMON.contains(run.get(0).toLowerCase(Locale.ROOT)))) {
            runs.add(new Run(List.copyOf(run), !lone));
        }
    }

    private static String stripPossessive(String word) {
        return word.endsWith("'s") || word.endsWith("’s") ? word.substring(0, word.length() - 2) : word;
    }
}
