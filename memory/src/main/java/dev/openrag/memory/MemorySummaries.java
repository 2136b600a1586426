package dev.openrag.memory;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Extractive summaries of a scope's memories, offline and deterministic: one per episode (the
 * memories that happened on one UTC day, as in search: a conversation's session, a day's notes)
 * and one of the whole scope, each linked to the memories it sums up.
 * <ul>
 * <li>An episode's summary names its day, speakers and size, quotes its {@value #QUOTED} most
 * central memories in the order they happened, and lists its key terms. A memory is central when
 * it shares words with the rest of its day that are rare in the rest of the scope (each shared
 * word weighs its other uses that day times its idf over the scope); key terms weigh the same way. Words are read in
 * each memory's own language ({@link MemoryWords}), and a word in more than half of the scope's memories, on more than
 * one day, weighs nothing.</li>
 * <li>The scope's summary gives its span and, for each speaker, the words they use more than
 * the scope as a whole: what each person talks about.</li>
 * </ul>
 */
public final class MemorySummaries {

    /** The tag every summary memory carries. */
    public static final String TAG = "summary";
    /** The link type from a summary to each memory it sums up. */
    public static final String LINK = "summarizes";
    static final int QUOTED = 3;
    static final int QUOTE_CHARS = 200;
    static final int KEY_TERMS = 8;
    /** How many memories must hold a word before it can be read as how the scope speaks rather than what it is about. */
    static final int SPEECH_MIN_MEMORIES = 4;
    /** A leading time stamp such as "[1:56 pm on 8 May, 2023]": the summary says the day itself. */
    private static final Pattern STAMP = Pattern.compile("^\\s*\\[[^\\]]{1,60}\\]\\s*");

    /** One summary: its memory id, text, when (its latest memory), and the memories it sums up. */
    public record Summary(String id, String text, long occurredAt, List<String> memoryIds) {

        /** As a memory of {@code scope}, tagged {@value #TAG}, linked to what it sums up. */
        public Memory memory(String scope, long now) {
            return new Memory(id, scope, text, List.of(TAG), false, now, now, null, null, null, List.of(),
                    memoryIds.stream().map(memoryId -> new Memory.Link(LINK, memoryId)).toList(), occurredAt, null);
        }
    }

    private MemorySummaries() {
    }

    /** The id of a scope's summary of one day, or of the whole scope ({@code day} null). */
    public static String id(String scope, LocalDate day) {
        return scope + "/summary/" + (day == null ? "all" : day.toString());
    }

    /** The summaries of {@code memories} (one scope's, summaries left out), episodes by day, then the scope's; none for none. */
    public static List<Summary> of(String scope, List<Memory> memories) {
        List<Memory> sorted = memories.stream().filter(memory -> !memory.tags().contains(TAG))
                .sorted(Comparator.comparingLong(MemorySummaries::happened).thenComparing(Memory::id)).toList();
        if (sorted.isEmpty()) {
            return List.of();
        }
        Map<String, Set<String>> words = new HashMap<>();
        Map<String, Integer> documentFrequency = new HashMap<>();
        Map<String, Set<LocalDate>> daysUsed = new HashMap<>();
        for (Memory memory : sorted) {
            Set<String> own = contentWords(memory);
            words.put(memory.id(), own);
            own.forEach(word -> documentFrequency.merge(word, 1, Integer::sum));
            own.forEach(word -> daysUsed.computeIfAbsent(word, w -> new HashSet<>()).add(day(memory)));
        }
        Map<String, Double> idf = new HashMap<>();
        // a word in more than half of the scope's memories, on more than one day, is how the scope speaks, not what any
        // day was about (chat fillers in any language): it weighs nothing; one day's topic keeps its weight, and so does a
        // word of a small scope (fewer than SPEECH_MIN_MEMORIES memories hold it), where sharing a word says what it is about
        documentFrequency.forEach((word, df) -> idf.put(word,
                df >= SPEECH_MIN_MEMORIES && 2 * df > sorted.size() && daysUsed.get(word).size() > 1 ? 0
                        : Math.log((double) sorted.size() / df)));

        TreeMap<LocalDate, List<Memory>> days = new TreeMap<>();
        sorted.forEach(memory -> days.computeIfAbsent(day(memory), d -> new ArrayList<>()).add(memory));
        List<Summary> summaries = new ArrayList<>();
        days.forEach((day, episode) -> summaries.add(episode(scope, day, episode, words, idf)));
        summaries.add(whole(scope, sorted, days, words, idf));
        return summaries;
    }

    private static Summary episode(String scope, LocalDate day, List<Memory> episode, Map<String, Set<String>> words,
                                   Map<String, Double> idf) {
        Map<String, Integer> uses = uses(episode, words);
        Comparator<Memory> central = Comparator.comparingDouble(memory -> -centrality(words.get(memory.id()), uses, idf));
        List<Memory> quoted = episode.stream().sorted(central.thenComparing(Memory::id)).limit(QUOTED)
                .sorted(Comparator.comparingLong(MemorySummaries::happened).thenComparing(Memory::id)).toList();
        Set<String> speakers = new LinkedHashSet<>();
        episode.stream().map(Memory::speaker).filter(speaker -> speaker != null).forEach(speakers::add);
        StringBuilder text = new StringBuilder("Summary of ").append(day).append(": ")
                .append(speakers.isEmpty() ? "" : String.join(" and ", speakers) + ", ")
                .append(episode.size()).append(episode.size() == 1 ? " memory." : " memories.");
        quoted.forEach(memory -> text.append(' ').append(quote(memory)));
        List<String> terms = keyTerms(uses, idf);
        if (!terms.isEmpty()) {
            text.append(" Key terms: ").append(String.join(", ", terms)).append('.');
        }
        return new Summary(id(scope, day), text.toString(), happened(episode.get(episode.size() - 1)),
                episode.stream().map(Memory::id).toList());
    }

    private static Summary whole(String scope, List<Memory> memories, TreeMap<LocalDate, List<Memory>> days,
                                 Map<String, Set<String>> words, Map<String, Double> idf) {
        StringBuilder text = new StringBuilder("Summary of all ").append(memories.size()).append(" memories, ")
                .append(days.firstKey()).append(" to ").append(days.lastKey()).append(", on ").append(days.size())
                .append(days.size() == 1 ? " day." : " days.");
        Map<String, List<Memory>> bySpeaker = new TreeMap<>();
        memories.stream().filter(memory -> memory.speaker() != null)
                .forEach(memory -> bySpeaker.computeIfAbsent(memory.speaker(), s -> new ArrayList<>()).add(memory));
        if (bySpeaker.isEmpty()) {
            List<String> terms = keyTerms(uses(memories, words), idf);
            if (!terms.isEmpty()) {
                text.append(" Key terms: ").append(String.join(", ", terms)).append('.');
            }
        }
        bySpeaker.forEach((speaker, said) -> {
            List<String> terms = keyTerms(uses(said, words), idf);
            text.append(' ').append(speaker).append(" (").append(said.size()).append(")")
                    .append(terms.isEmpty() ? "." : " talks about " + String.join(", ", terms) + ".");
        });
        return new Summary(id(scope, null), text.toString(), happened(memories.get(memories.size() - 1)),
                memories.stream().map(Memory::id).toList());
    }

    /** How many of {@code memories} use each word. */
    private static Map<String, Integer> uses(List<Memory> memories, Map<String, Set<String>> words) {
        Map<String, Integer> uses = new HashMap<>();
        memories.forEach(memory -> words.get(memory.id()).forEach(word -> uses.merge(word, 1, Integer::sum)));
        return uses;
    }

    /** The words a memory shares with the others of its group, each weighing its other uses times its idf, over the root of its size. */
    private static double centrality(Set<String> own, Map<String, Integer> uses, Map<String, Double> idf) {
        double shared = 0;
        for (String word : own) {
            shared += (uses.get(word) - 1) * idf.get(word);
        }
        return shared / Math.sqrt(own.size() + 1);
    }

    /** Words used by at least two memories of the group, by uses times idf, best first (ties alphabetical). */
    private static List<String> keyTerms(Map<String, Integer> uses, Map<String, Double> idf) {
        return uses.entrySet().stream().filter(entry -> entry.getValue() >= 2 && idf.get(entry.getKey()) > 0)
                .sorted(Comparator.<Map.Entry<String, Integer>>comparingDouble(entry -> -entry.getValue() * idf.get(entry.getKey()))
                        .thenComparing(Map.Entry::getKey))
                .limit(KEY_TERMS).map(Map.Entry::getKey).toList();
    }

    /**
     * A memory's words less its language's stop words ({@link MemoryWords}, as written, CJK as character pairs), less single
     * letters or characters, numbers and its speaker's name. Words common in chat (greetings, fillers) are not listed: they
     * are in many of the scope's memories, on many days, and weigh little or nothing.
     */
    private static Set<String> contentWords(Memory memory) {
        Set<String> words = new LinkedHashSet<>();
        for (String word : MemoryWords.of(false).ofText(STAMP.matcher(memory.text()).replaceFirst(""))) {
            if (word.codePointCount(0, word.length()) > 1 && !word.chars().allMatch(Character::isDigit)
                    && (memory.speaker() == null || !word.equals(MemoryText.key(memory.speaker())))) {
                words.add(word);
            }
        }
        return words;
    }

    /** A memory as quoted: without a leading time stamp, with its speaker, cut at about {@value #QUOTE_CHARS} characters. */
    private static String quote(Memory memory) {
        String text = STAMP.matcher(memory.text()).replaceFirst("").replaceAll("\\s+", " ").strip();
        if (memory.speaker() != null && !text.startsWith(memory.speaker() + ":")) {
            text = memory.speaker() + ": " + text;
        }
        if (text.length() > QUOTE_CHARS) {
            int cut = text.lastIndexOf(' ', QUOTE_CHARS);
            text = text.substring(0, cut > QUOTE_CHARS / 2 ? cut : QUOTE_CHARS) + "…";
        }
        return text.endsWith(".") || text.endsWith("!") || text.endsWith("?") || text.endsWith("…") ? text : text + ".";
    }

    private static long happened(Memory memory) {
        return memory.occurredAt() != null ? memory.occurredAt() : memory.createdAt();
    }

    private static LocalDate day(Memory memory) {
        return LocalDate.ofInstant(Instant.ofEpochMilli(happened(memory)), ZoneOffset.UTC);
    }
}
