package dev.openrag.memory;

import java.util.ArrayList;
import java.util.List;

import dev.openrag.knowledge.text.FulltextQuery;

/**
 * Names in memories and questions: a name's key, the names a text could mention, two people named
 * together; and a query's words limited to one scope ({@link FulltextQuery} does the words).
 */
public final class MemoryText {

    private MemoryText() {
    }

    /** A name as it is matched: its words, lower-cased, single spaces ("Jolene  Smith" → "jolene smith"); null for null. */
    public static String key(String name) {
        return name == null ? null : String.join(" ", FulltextQuery.words(name));
    }

    /** The keys of every one- and two-word name {@code text} could mention ("Caroline's" mentions "caroline"). */
    public static List<String> nameCandidates(String text) {
        String[] words = FulltextQuery.words(text);
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
     * Whether {@code text} names two people together, joined by "and", "or" or "&amp;" ("What do Jon and
     * Gina both like?"): a question about both of them rather than about the first it names.
     */
    public static boolean namedTogether(String text, String first, String second) {
        String words = " " + String.join(" ", FulltextQuery.words(text)) + " "; // "&" is no letter: "Jon & Gina" reads "jon gina"
        String a = key(first);
        String b = key(second);
        for (String joint : List.of(" and ", " or ", " ")) {
            if (words.contains(" " + a + joint + b + " ") || words.contains(" " + b + joint + a + " ")) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code words} (a {@link FulltextQuery#luceneQuery}) limited to one scope's memories: Lucene then reads only
     * those (a scope's tokens as a phrase; the exact scope is checked again after).
     */
    public static String inScope(String scope, String words) {
        return FulltextQuery.within("scope", scope, words);
    }
}
