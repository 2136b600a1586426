package dev.openrag.memory;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * A text's character n-grams, the same for every language without a stemmer or a word list: each word of a
 * script that spaces its words, lower-cased and framed by spaces, gives its 4-grams (a word of one or two letters
 * gives itself), so that inflections of a word share most of theirs; a script that does not space its words (Han,
 * kana, Hangul) gives each character and each pair of neighbours.
 */
public final class TextGrams {

    private TextGrams() {
    }

    public static Set<String> of(String text) {
        Set<String> grams = new HashSet<>();
        if (text == null) {
            return grams;
        }
        int[] points = text.toLowerCase(Locale.ROOT).codePoints().toArray();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < points.length; i++) {
            int point = points[i];
            boolean unspaced = unspaced(point);
            if (Character.isLetterOrDigit(point) && !unspaced) {
                word.appendCodePoint(point);
                continue;
            }
            addWord(grams, word);
            if (unspaced) {
                grams.add(Character.toString(point));
                if (i + 1 < points.length && unspaced(points[i + 1])) {
                    grams.add(Character.toString(point) + Character.toString(points[i + 1]));
                }
            }
        }
        addWord(grams, word);
        return grams;
    }

    /** How much of {@code part} the question's n-grams {@code asked} hit, by count over the square root of the part's size (0 for an empty part). */
    public static double share(Set<String> asked, Set<String> part) {
        if (part.isEmpty()) {
            return 0;
        }
        return asked.stream().filter(part::contains).count() / Math.sqrt(part.size());
    }

    private static void addWord(Set<String> grams, StringBuilder word) {
        if (word.isEmpty()) {
            return;
        }
        String framed = " " + word + " ";
        if (word.length() <= 2) {
            grams.add(framed);
        } else {
            for (int i = 0; i + 4 <= framed.length(); i++) {
                grams.add(framed.substring(i, i + 4));
            }
        }
        word.setLength(0);
    }

    private static boolean unspaced(int point) {
        Character.UnicodeScript script = Character.UnicodeScript.of(point);
        return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA || script == Character.UnicodeScript.HANGUL;
    }
}
