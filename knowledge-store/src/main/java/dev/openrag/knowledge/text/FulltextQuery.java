package dev.openrag.knowledge.text;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The words of a query as a Lucene query for a Neo4j full-text index (memories' words, graph
 * nodes' names): lower-cased letter and digit runs (so no user input is ever read as Lucene
 * syntax), common English function words dropped (they match almost every text), at most 32
 * terms, any of which may match (BM25 ranks the rest).
 */
public final class FulltextQuery {

    /** The most terms a query keeps. */
    public static final int MAX_TERMS = 32;
    public static final Set<String> STOP_WORDS = Set.of(
            "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "can", "could", "did", "do", "does", "for",
            "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or",
            "our", "she", "he", "so", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this",
            "to", "was", "we", "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with", "would",
            "you", "your", "his", "her", "him", "about", "any", "some", "s", "t");

    private FulltextQuery() {
    }

    /** {@code text}'s letter and digit runs, lower case. */
    public static String[] words(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip().split(" ");
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
