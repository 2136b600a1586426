package dev.openrag.memory;

import java.time.DayOfWeek;
import java.time.Month;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The named things a memory mentions — people, places, organisations, named events — found offline
 * by rule, in any language written with capitals: runs of capitalised words ("Jolene", "Lake Tahoe", "LGBTQ",
 * "Bank of America"). A capitalised word whose lower-case form is a stop word of the text's own language
 * ({@link MemoryWords}: Lucene's Snowball stop sets; where languages tie, a stop word of each of them) is never part
 * of a run ("I", "The", "Ich", "Nous"), nor is a month's or a weekday's name in that language ({@code java.time}'s
 * names for its locale): time is a field of its own.
 * <p>
 * A capital opening a sentence may be the sentence's alone, so a run there is an uncertain entity ("Went" and
 * "Jolene" alike), and the rest of such a run, capitalised away from the sentence's start, a certain one ("Hey Mel" →
 * "Mel"). Search follows an uncertain entity only once some memory of the scope has written it with a capital
 * mid-sentence. The memory's own speaker is never an entity. Memories that mention the same entity are linked through
 * it ({@code (:Memory)-[:MENTIONS]->(:MemoryEntity)}), which memory search follows when asked.
 * <p>
 * Where capitals mark every noun (German), common nouns mid-sentence read as names too.
 */
public final class MemoryEntities {

    /**
     * An entity: {@code key} is how it is matched (lower case, single spaces), {@code name} how it was
     * written; {@code certain} unless its only capital could be the sentence's ("Weekly note 3: …").
     */
    public record Entity(String key, String name, boolean certain) {
    }

    public static final int MAX_PER_MEMORY = 16;

    /** Sentences, and the clauses a colon or a semicolon opens, in Latin and CJK punctuation. */
    private static final Pattern SENTENCES = Pattern.compile("[^.!?:;\\n\"“”«»()\\[\\]。！？；：]+");
    /** Words of cased scripts: Han, kana and Hangul have no capitals and end a word, so "在Google工作" holds "Google". */
    private static final Pattern TOKEN = Pattern.compile(
            "[\\p{L}\\p{N}&&[^\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}\\p{IsHangul}]][\\p{L}\\p{N}'’&\\-&&[^\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}\\p{IsHangul}]]*");
    /** Lower-case words that join the capitalised words of one name ("Bank of America", "Rio de Janeiro", "Ludwig van Beethoven"). */
    private static final Set<String> CONNECTORS = Set.of("of", "de", "la", "von", "van");
    /** Each language's month and weekday names, lower case, as {@code java.time} writes them for its locale. */
    private static final Map<MemoryWords.Language, Set<String>> CALENDAR_NAMES = new EnumMap<>(MemoryWords.Language.class);

    static {
        for (MemoryWords.Language language : MemoryWords.Language.values()) {
            Set<String> names = new HashSet<>();
            for (Locale locale : Locale.getAvailableLocales()) {
                if (locale.getCountry().isEmpty() && locale.getDisplayLanguage(Locale.ENGLISH).equalsIgnoreCase(language.name())) {
                    for (TextStyle style : List.of(TextStyle.FULL, TextStyle.FULL_STANDALONE)) {
                        for (Month month : Month.values()) {
                            names.add(month.getDisplayName(style, locale).toLowerCase(locale));
                        }
                        for (DayOfWeek day : DayOfWeek.values()) {
                            names.add(day.getDisplayName(style, locale).toLowerCase(locale));
                        }
                    }
                }
            }
            CALENDAR_NAMES.put(language, Set.copyOf(names));
        }
    }

    private MemoryEntities() {
    }

    /** The entities {@code text} mentions, in order of first mention, at most {@value #MAX_PER_MEMORY}; never {@code speaker}. */
    public static List<Entity> of(String text, String speaker) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        List<MemoryWords.Language> languages = MemoryWords.of(false).languagesOf(text);
        String speakerKey = MemoryText.key(speaker);
        Map<String, Entity> entities = new LinkedHashMap<>();
        Matcher sentence = SENTENCES.matcher(text);
        while (sentence.find() && entities.size() < MAX_PER_MEMORY) {
            for (Run run : capitalisedRuns(sentence.group(), languages)) {
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

    private static List<Run> capitalisedRuns(String sentence, List<MemoryWords.Language> languages) {
        List<Run> runs = new ArrayList<>();
        List<String> run = new ArrayList<>();
        boolean runOpensSentence = false;
        int previousEnd = -1;
        Matcher token = TOKEN.matcher(sentence);
        while (token.find()) {
            String word = nameIn(stripPossessive(token.group()), languages);
            // nothing but punctuation before it (a word of a script without capitals, "我在Google", counts as a word)
            boolean sentenceStart = previousEnd < 0 && sentence.substring(0, token.start()).codePoints().noneMatch(Character::isLetterOrDigit);
            boolean adjacent = previousEnd >= 0 && sentence.substring(previousEnd, token.start()).isBlank();
            boolean capitalised = word != null && Character.isUpperCase(word.codePointAt(0));
            if (capitalised && (run.isEmpty() || adjacent)) {
                if (run.isEmpty()) {
                    runOpensSentence = sentenceStart;
                }
                run.add(word);
            } else if (!run.isEmpty() && adjacent && CONNECTORS.contains(token.group())) {
                run.add(token.group());
            } else {
                close(run, runOpensSentence, runs);
                run = new ArrayList<>();
                if (capitalised) {
                    runOpensSentence = false;
                    run.add(word);
                }
            }
            previousEnd = token.end();
        }
        close(run, runOpensSentence, runs);
        return runs;
    }

    /**
     * {@code word} as a possible part of a name: null for a stop word or a month's or weekday's name of the text's
     * language(s); a word elided onto a stop word is read without it ("l'Espagne" → "Espagne", "I'm" → null).
     */
    private static String nameIn(String word, List<MemoryWords.Language> languages) {
        int apostrophe = Math.max(word.indexOf('\''), word.indexOf('’'));
        if (apostrophe > 0 && stopOrCalendar(word.substring(0, apostrophe), languages)) {
            String rest = word.substring(apostrophe + 1);
            return rest.isEmpty() || stopOrCalendar(rest, languages) ? null : rest;
        }
        return stopOrCalendar(word.replace('’', '\''), languages) ? null : word;
    }

    /**
     * Whether {@code word} is a stop word of every language the text may be in (its {@code languages}, one or the tied
     * ones), or a month's or weekday's name in any of them. A stop word of one tied language only is another's name
     * (where English and Italian tie, "Per" is an Italian stop word and an English name); a calendar name means the same
     * time in whichever tied language it is written (an English month's name in a text that ties with Italian).
     */
    private static boolean stopOrCalendar(String word, List<MemoryWords.Language> languages) {
        String lower = word.toLowerCase(Locale.ROOT);
        boolean stopInEvery = !languages.isEmpty();
        for (MemoryWords.Language language : languages) {
            if (CALENDAR_NAMES.get(language).contains(lower)) {
                return true;
            }
            stopInEvery &= language.stopWords.contains(lower);
        }
        return stopInEvery;
    }

    /**
     * Adds a finished run, trailing connectors dropped. A run opening its sentence is uncertain, and the rest of it,
     * capitalised away from the sentence's start, is added as a certain one of its own.
     */
    private static void close(List<String> run, boolean opensSentence, List<Run> runs) {
        while (!run.isEmpty() && CONNECTORS.contains(run.get(run.size() - 1))) {
            run.remove(run.size() - 1);
        }
        if (run.isEmpty()) {
            return;
        }
        runs.add(new Run(List.copyOf(run), !opensSentence));
        if (opensSentence && run.size() > 1) {
            List<String> rest = new ArrayList<>(run.subList(1, run.size()));
            while (!rest.isEmpty() && CONNECTORS.contains(rest.get(0))) {
                rest.remove(0);
            }
            close(rest, false, runs);
        }
    }

    private static String stripPossessive(String word) {
        return word.endsWith("'s") || word.endsWith("’s") ? word.substring(0, word.length() - 2) : word;
    }
}
