package dev.openrag.knowledge.rerank;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.port.Reranker;
import dev.openrag.knowledge.text.QueryTerms;

/**
 * The local, CPU-only reranker: rewards candidates that define or contain the code names a query
 * spells out (snake_case, camelCase, {@code a.b}, {@code f()}, {@code `quoted`}). A chunk whose
 * structural context says it defines the name, or that sits inside a declaration of that name,
 * scores 1 for it; one whose text merely contains it scores 0.5; the score is the mean over the
 * query's names. Queries without code names leave every score at 0.
 */
public final class IdentifierReranker implements Reranker {

    public static final String NAME = "identifiers";
    private static final List<String> DECLARATION_LABELS = List.of("Defines: ", "Inside: ");
    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Double> score(String query, List<IndexedChunk> candidates) {
        Set<String> names = QueryTerms.codeNames(query);
        List<Double> scores = new ArrayList<>(candidates.size());
        for (IndexedChunk candidate : candidates) {
            if (names.isEmpty()) {
                scores.add(0.0);
                continue;
            }
            Set<String> declared = declaredNames(candidate.context());
            // the text is searched for the query's few names, not split into words: this runs on
            // every candidate of every search
            String text = candidate.text() == null ? "" : candidate.text().toLowerCase(Locale.ROOT);
            double sum = 0;
            for (String name : names) {
                sum += declared.contains(name) ? 1.0 : containsWord(text, name) ? 0.5 : 0.0;
            }
            scores.add(sum / names.size());
        }
        return scores;
    }

    /**
     * Names in the context's "Defines:" and "Inside:" lines (the structural contextualizer's). The
     * labels are found with indexOf, not a regular expression: this runs on every candidate of
     * every search, and the expression tried a match at every character of the context.
     */
    static Set<String> declaredNames(String context) {
        Set<String> names = new HashSet<>();
        if (context == null) {
            return names;
        }
        for (String label : DECLARATION_LABELS) {
            for (int at = context.indexOf(label); at >= 0; at = context.indexOf(label, at + 1)) {
                if (at > 0 && isWordChar(context.charAt(at - 1))) {
                    continue; // the end of a longer word, such as "XDefines: "
                }
                int end = context.indexOf('\n', at);
                names.addAll(words(context.substring(at + label.length(), end < 0 ? context.length() : end)));
            }
        }
        return names;
    }

    /** Whether {@code name} occurs in {@code text} as a whole identifier (both lower case). */
    static boolean containsWord(String text, String name) {
        for (int at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
            if (!isIdentifierChar(text, at - 1) && !isIdentifierChar(text, at + name.length())) {
                return true;
            }
        }
        return false;
    }

    private static boolean isIdentifierChar(String text, int index) {
        if (index < 0 || index >= text.length()) {
            return false;
        }
        char c = text.charAt(index);
        return c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
    }

    private static boolean isWordChar(char c) {
        return c == '_' || Character.isLetterOrDigit(c);
    }

    private static Set<String> words(String text) {
        Set<String> words = new HashSet<>();
        if (text == null) {
            return words;
        }
        Matcher word = WORD.matcher(text);
        while (word.find()) {
            words.add(word.group().toLowerCase(Locale.ROOT));
        }
        return words;
    }
}
