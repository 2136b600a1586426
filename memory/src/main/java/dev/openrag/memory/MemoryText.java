package dev.openrag.memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.ibm.icu.text.BreakIterator;
import com.ibm.icu.util.ULocale;

import dev.openrag.knowledge.text.FulltextQuery;

/**
 * Names in memories and questions: a name's key, the names a text could mention, two people named
 * together; and a query's words limited to one scope ({@link FulltextQuery} does the words).
 */
public final class MemoryText {

    private MemoryText() {
    }

    private static final String CJK_CLASS = "\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}\\p{IsHangul}";
    /** Where a CJK character meets a letter or digit of another script. */
    private static final Pattern SCRIPT_CHANGE = Pattern.compile("(?<=[" + CJK_CLASS + "])(?=[\\p{L}\\p{N}&&[^" + CJK_CLASS
            + "]])|(?<=[\\p{L}\\p{N}&&[^" + CJK_CLASS + "]])(?=[" + CJK_CLASS + "])");

    /** A name as it is matched: its words, lower-cased, single spaces ("Jolene  Smith" → "jolene smith"); null for null. */
    public static String key(String name) {
        return name == null ? null : String.join(" ", FulltextQuery.words(name));
    }

    /**
     * The keys of every one- and two-word name {@code text} could mention ("Caroline's" mentions "caroline"; "Jon和Gina"
     * mentions "jon" and "gina": a CJK character ends a word of another script).
     */
    public static List<String> nameCandidates(String text) {
        String[] words = FulltextQuery.words(SCRIPT_CHANGE.matcher(text).replaceAll(" "));
        List<String> candidates = new ArrayList<>();
        for (int i = 0; i < words.length && candidates.size() < 2 * FulltextQuery.MAX_TERMS; i++) {
            if (!words[i].isEmpty()) {
                candidates.add(words[i]);
                if (i + 1 < words.length) {
                    candidates.add(words[i] + " " + words[i + 1]);
                }
            }
        }
        return candidates;
    }

    /**
     * The values of {@code byKey} whose keys (names, {@link #key}) {@code text} names, each once, in the order it first
     * names them: a name of one or two words ({@link #nameCandidates}), or a name of CJK characters inside a sentence of
     * them (which has no spaces to find it by), found by its bigrams as word search finds it ({@link #cjkPlaces}).
     */
    public static <T> List<T> named(String text, Map<String, T> byKey) {
        if (text == null || byKey.isEmpty()) {
            return List.of();
        }
        String lower = text.toLowerCase(Locale.ROOT);
        Set<String> keys = new LinkedHashSet<>();
        for (String candidate : nameCandidates(text)) {
            if (byKey.containsKey(candidate)) {
                keys.add(candidate);
            }
        }
        for (String key : byKey.keySet()) {
            if (!key.isEmpty() && cjk(key.codePointAt(0)) && !places(lower, key).isEmpty()) {
                keys.add(key);
            }
        }
        List<int[]> firstPlaces = new ArrayList<>(); // {place, index in keys}
        List<String> ordered = List.copyOf(keys);
        for (int i = 0; i < ordered.size(); i++) {
            List<int[]> places = places(lower, ordered.get(i));
            firstPlaces.add(new int[] {places.isEmpty() ? Integer.MAX_VALUE : places.get(0)[0], i});
        }
        firstPlaces.sort(Comparator.comparingInt((int[] place) -> place[0]).thenComparingInt(place -> place[1]));
        Set<T> named = new LinkedHashSet<>();
        for (int[] place : firstPlaces) {
            named.add(byKey.get(ordered.get(place[1])));
        }
        return List.copyOf(named);
    }

    /**
     * Whether {@code text} names two people together ("What do Jon and Gina both like?", "¿Qué les gusta a Jon y a
     * Gina?", "Jon和Gina"): a question about both of them rather than about the first it names. Together is a rule of
     * form, not a list of conjunctions: between the two names stand only signs ("&amp;", "/", ","), at most
     * {@value #MAX_JOINING_WORDS} function words of the text's own language (its stop words, {@link MemoryWords}), or one
     * character of a CJK script (where a conjunction is one character: 和, と, 과). A content word between them ("tell",
     * "his friend give"), or nothing but a space ("Was hat Jon Gina erzählt?"), sets them apart.
     */
    public static boolean namedTogether(String text, String first, String second) {
        String a = key(first);
        String b = key(second);
        if (text == null || a == null || b == null || a.isEmpty() || b.isEmpty() || a.equals(b)) {
            return false;
        }
        String lower = text.toLowerCase(Locale.ROOT);
        Predicate<String> functionWord = MemoryWords.stopWordsOf(text);
        List<int[]> others = places(lower, b);
        for (int[] one : places(lower, a)) {
            for (int[] other : others) {
                String between = one[1] <= other[0] ? lower.substring(one[1], other[0])
                        : other[1] <= one[0] ? lower.substring(other[1], one[0]) : null;
                if (between != null && joins(between, functionWord)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The most function words that may join two names ("a Jon y a Gina"). */
    static final int MAX_JOINING_WORDS = 2;

    /** A letter or digit of a script that spaces its words (a Latin name goes on into no CJK character: "Jon和Gina"). */
    private static final String NOT_CJK_LETTER = "[\\p{L}\\p{N}&&[^" + CJK_CLASS + "]]";
    private static final Pattern NOT_A_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");

    /** Whether what stands between two names joins them ({@link #namedTogether}). */
    private static boolean joins(String between, Predicate<String> functionWord) {
        if (between.isEmpty()) {
            return true; // two CJK names side by side: a list
        }
        String[] words = NOT_A_WORD.matcher(between).replaceAll(" ").strip().split(" ");
        if (words[0].isEmpty()) {
            return !between.isBlank(); // signs join; a space alone does not
        }
        if (words.length == 1 && words[0].codePointCount(0, words[0].length()) == 1 && cjk(words[0].codePointAt(0))) {
            return true;
        }
        return words.length <= MAX_JOINING_WORDS && Arrays.stream(words).allMatch(functionWord);
    }

    /**
     * Where the name {@code key} stands in {@code lower} (lower-cased text) as a whole name: {start, end} of each place,
     * its words apart by any non-letters, its Latin edges not going on with a letter; a CJK name as its bigrams
     * ({@link #cjkPlaces}).
     */
    private static List<int[]> places(String lower, String key) {
        if (cjk(key.codePointAt(0))) {
            return cjkPlaces(lower, key);
        }
        StringBuilder regex = new StringBuilder();
        if (!cjk(key.codePointAt(0))) {
            regex.append("(?<!" + NOT_CJK_LETTER + ")");
        }
        String[] words = key.split(" ");
        for (int i = 0; i < words.length; i++) {
            regex.append(i == 0 ? "" : "[^\\p{L}\\p{N}]+").append(Pattern.quote(words[i]));
        }
        if (!cjk(key.codePointBefore(key.length()))) {
            regex.append("(?!" + NOT_CJK_LETTER + ")");
        }
        List<int[]> places = new ArrayList<>();
        Matcher m = Pattern.compile(regex.toString()).matcher(lower);
        while (m.find()) {
            places.add(new int[] {m.start(), m.end()});
        }
        return places;
    }

    /**
     * Where the CJK name {@code key} stands in {@code lower}, read as word search reads CJK text ({@link
     * MemoryWords#cjkGrams}): its bigrams, one after another, among the text's. A name of one character is found only
     * where that character stands alone, never inside a run of characters ("明" is not in "明天"). A longer name of Han
     * or kana is found where it begins and ends at a word boundary of the text, as ICU's dictionary segments Chinese and
     * Japanese: not inside a longer word ("小明" is not in "小明星", a starlet); a name of Hangul, which takes its
     * particles without a space, wherever its bigrams stand.
     */
    private static List<int[]> cjkPlaces(String lower, String key) {
        List<String> name = MemoryWords.cjkGrams(key).stream().map(MemoryWords.Gram::term).toList();
        List<MemoryWords.Gram> grams = MemoryWords.cjkGrams(lower);
        List<int[]> places = new ArrayList<>();
        for (int i = 0; !name.isEmpty() && i + name.size() <= grams.size(); i++) {
            boolean found = true;
            for (int j = 0; j < name.size() && found; j++) {
                MemoryWords.Gram gram = grams.get(i + j);
                found = gram.term().equals(name.get(j)) && (j == 0 || gram.start() <= grams.get(i + j - 1).end()); // in one run
            }
            if (found) {
                places.add(new int[] {grams.get(i).start(), grams.get(i + name.size() - 1).end()});
            }
        }
        if (places.isEmpty() || key.codePoints().anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HANGUL)) {
            return places;
        }
        BreakIterator words = BreakIterator.getWordInstance(ULocale.ROOT);
        words.setText(lower);
        places.removeIf(place -> !words.isBoundary(place[0]) || !words.isBoundary(place[1]));
        return places;
    }

    private static boolean cjk(int c) {
        Character.UnicodeScript script = Character.UnicodeScript.of(c);
        return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA || script == Character.UnicodeScript.HANGUL;
    }

    /**
     * {@code words} (a {@link FulltextQuery#luceneQuery}) limited to one scope's memories: Lucene then reads only
     * those (a scope's tokens as a phrase; the exact scope is checked again after).
     */
    public static String inScope(String scope, String words) {
        return FulltextQuery.within("scope", scope, words);
    }
}
