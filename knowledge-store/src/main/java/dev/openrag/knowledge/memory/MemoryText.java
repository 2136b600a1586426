package dev.openrag.knowledge.memory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The words of a query as a Lucene query for the memory text index: lower-cased letter and digit
 * runs (so no user input is ever read as Lucene syntax), common English function words dropped
 * (they match almost every memory), at most 32 terms, any of which may match (BM25 ranks the rest).
 */
public final class MemoryText {

    private static final int MAX_TERMS = 32;
    static final Set<String> STOP_WORDS = Set.of(
            "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "can", "could", "did", "do", "does", "for",
            "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or",
            "our", "she", "he", "so", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this",
            "to", "was", "we", "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with", "would",
            "you", "your", "his", "her", "him", "about", "any", "some", "s", "t");

    private MemoryText() {
    }

    /** A name as it is matched: its words, lower-cased, single spaces ("Jolene  Smith" → "jolene smith"); null for null. */
    public static String key(String name) {
        return name == null ? null : String.join(" ", words(name));
    }

    /** The keys of every one- and two-word name {@code text} could mention ("Caroline's" mentions "caroline"). */
    public static List<String> nameCandidates(String text) {
        String[] words = words(text);
        List<String> candidates = new ArrayList<>();
        for (int i = 0; i < words.length && candidates.size() < 2 * MAX_TERMS; i++) {
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
        String words = " " + String.join(" ", words(text)) + " "; // "&" is no letter: "Jon & Gina" reads "jon gina"
        String a = key(first);
        String b = key(second);
        for (String joint : List.of(" and ", " or ", " ")) {
            if (words.contains(" " + a + joint + b + " ") || words.contains(" " + b + joint + a + " ")) {
                return true;
            }
        }
        return false;
    }

    static String[] words(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip().split(" ");
    }

    /**
     * {@code words} (a {@link #luceneQuery}) limited to one scope's memories: Lucene then reads only
     * those (a scope's tokens as a phrase; the exact scope is checked again after).
     */
    public static String inScope(String scope, String words) {
        return within("scope", scope, words);
    }

    /** {@code words} (a {@link #luceneQuery}) limited to the nodes whose {@code field} holds {@code value}'s tokens. */
    public static String within(String field, String value, String words) {
        return "+" + field + ":\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\" +(" + words.replace(" OR ", " ") + ")";
    }

    /** The Lucene query for {@code text}; empty when it has no word worth searching. */
    public static String luceneQuery(String text) {
        return String.join(" OR ", queryTerms(text));
    }

    /** The words of {@code text} worth searching: no function words, each once, at most 32. */
    public static List<String> queryTerms(String text) {
        Set<String> terms = new LinkedHashSet<>();
        for (String word : words(text)) {
            if (!word.isEmpty() && !STOP_WORDS.contains(word) && terms.size() < MAX_TERMS) {
                terms.add(word);
            }
        }
        return List.copyOf(terms);
    }
}
