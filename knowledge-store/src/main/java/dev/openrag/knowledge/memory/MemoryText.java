package dev.openrag.knowledge.memory;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The words of a query as a Lucene query for the memory text index: lower-cased letter and digit
 * runs (so no user input is ever read as Lucene syntax), common English function words dropped
 * (they match almost every memory), at most 32 terms, any of which may match (BM25 ranks the rest).
 */
public final class MemoryText {

    private static final int MAX_TERMS = 32;
    private static final Set<String> STOP_WORDS = Set.of(
            "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "can", "could", "did", "do", "does", "for",
            "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or",
            "our", "she", "he", "so", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this",
            "to", "was", "we", "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with", "would",
            "you", "your", "his", "her", "him", "about", "any", "some", "s", "t");

    private MemoryText() {
    }

    /** The Lucene query for {@code text}; empty when it has no word worth searching. */
    public static String luceneQuery(String text) {
        Set<String> terms = new LinkedHashSet<>();
        for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!word.isEmpty() && !STOP_WORDS.contains(word) && terms.size() < MAX_TERMS) {
                terms.add(word);
            }
        }
        return String.join(" OR ", terms);
    }
}
