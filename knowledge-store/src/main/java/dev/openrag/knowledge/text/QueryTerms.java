package dev.openrag.knowledge.text;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ways a query can name an entity: runs of 1-3 consecutive words, "squashed" (lower case,
 * letters and digits only) so that "http client" meets HttpClient, http_client and http-client.
 */
public final class QueryTerms {

    private static final Set<String> STOP_WORDS = Set.of("a", "an", "and", "are", "as", "at", "be", "by", "can", "do",
            "does", "for", "from", "how", "i", "if", "in", "into", "is", "it", "its", "of", "on", "or", "that", "the",
            "this", "to", "what", "when", "where", "which", "who", "why", "with", "you", "use", "used", "using");

    private static final Pattern QUOTED = Pattern.compile("`([^`]{2,80})`");
    /** snake_case, camelCase, PascalCase with an inner capital, a call {@code f()}, a member {@code a.b}, {@code a::b}. */
    private static final Pattern CODE_NAME = Pattern.compile("\\b[A-Za-z]+_[A-Za-z0-9_]+\\b|\\b[a-z]+[A-Z][A-Za-z0-9]*\\b"
            + "|\\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\\b|\\b\\w+(?=\\(\\))|\\b\\w+(?:(?:\\.|::)\\w+)+\\b");
    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private QueryTerms() {
    }

    /**
     * The code names a query spells out, lower-cased: each {@code `quoted`} name (its last word,
     * so {@code `Foo::bar()`} names bar) and every identifier-shaped word outside quotes (for
     * {@code a.b} and {@code a::b}, the last part).
     */
    public static Set<String> codeNames(String query) {
        Set<String> names = new LinkedHashSet<>();
        Matcher quoted = QUOTED.matcher(query);
        while (quoted.find()) {
            addName(names, lastWord(quoted.group(1)));
        }
        Matcher name = CODE_NAME.matcher(QUOTED.matcher(query).replaceAll(" "));
        while (name.find()) {
            addName(names, lastWord(name.group()));
        }
        return names;
    }

    private static void addName(Set<String> names, String name) {
        if (name != null && name.length() > 1) { // "3.0" and "e.g." name nothing
            names.add(name.toLowerCase(Locale.ROOT));
        }
    }

    private static String lastWord(String text) {
        Matcher word = WORD.matcher(text);
        String last = null;
        while (word.find()) {
            last = word.group();
        }
        return last;
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
