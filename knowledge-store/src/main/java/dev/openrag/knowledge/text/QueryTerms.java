package dev.openrag.knowledge.text;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The ways a query can name an entity: runs of 1-3 consecutive words, "squashed" (lower case,
 * letters and digits only) so that "http client" meets HttpClient, http_client and http-client.
 */
public final class QueryTerms {

    private static final Set<String> STOP_WORDS = Set.of("a", "an", "and", "are", "as", "at", "be", "by", "can", "do",
            "does", "for", "from", "how", "i", "if", "in", "into", "is", "it", "its", "of", "on", "or", "that", "the",
            "this", "to", "what", "when", "where", "which", "who", "why", "with", "you", "use", "used", "using");

    private QueryTerms() {
    }

    public static List<String> squashedGrams(String query) {
        String[] words = query.split("[^\\p{L}\\p{N}_]+|(?<=[a-z])(?=[A-Z])|_");
        Set<String> grams = new LinkedHashSet<>();
        for (int start = 0; start < words.length; start++) {
            StringBuilder gram = new StringBuilder();
            boolean meaningful = false;
            for (int length = 1; length <= 3 && start + length <= words.length; length++) {
                String word = words[start + length - 1].toLowerCase(Locale.ROOT);
                if (word.isEmpty()) {
                    break;
                }
                gram.append(word);
                meaningful |= !STOP_WORDS.contains(word);
                if (meaningful && gram.length() >= 4) {
                    grams.add(gram.toString());
                }
            }
        }
        return List.copyOf(grams);
    }

    /** The squashed form of a name: what {@link #squashedGrams} produces for the words that spell it. */
    public static String squash(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]", "");
    }
}
