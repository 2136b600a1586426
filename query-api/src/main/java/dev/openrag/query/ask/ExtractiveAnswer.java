package dev.openrag.query.ask;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import dev.openrag.memory.Correction;
import dev.openrag.query.search.SearchResponse;

/**
 * The answer without an LLM: corrections first, then from each of the best sources the sentence
 * sharing most words with the question, cited as [n]. Deterministic and offline.
 */
final class ExtractiveAnswer {

    static final int PASSAGES = 3;
    private static final Set<String> STOP_WORDS = Set.of("a", "an", "the", "is", "are", "was", "were", "what", "which",
            "who", "how", "why", "when", "where", "do", "does", "did", "of", "to", "in", "on", "for", "and", "or", "with",
            "it", "this", "that", "be", "can", "i", "you", "my", "our", "we");

    private ExtractiveAnswer() {
    }

    /** A quoted sentence: source {@code source} (0-based), its exact range {@code [start, end)} in that source's text, as shown. */
    record Quote(int source, int start, int end, String shown) {
    }

    /** After a full stop, question or exclamation mark; at a blank line; after a Markdown heading's line (a heading is no sentence). */
    private static final java.util.regex.Pattern SENTENCE_BREAK = java.util.regex.Pattern.compile(
            "(?<=[.!?])\\s+|\\n\\s*\\n|(?m)(?<=^#{1,6}[ \\t][^\\n]{0,200})\\n");

    /** The answer as sentences, each ending with its citation. */
    static List<String> sentences(String question, List<SearchResponse.Result> sources, List<Correction> corrections) {
        List<String> answer = new ArrayList<>();
        corrections.forEach(correction -> answer.add("Correction: " + correction.text().strip()));
        quotes(question, sources).forEach(quote -> answer.add(quote.shown() + " [" + (quote.source() + 1) + "]"));
        if (answer.isEmpty()) {
            answer.add("No passage in this collection matches the question.");
        }
        return answer;
    }

    /** From each of the best sources, the sentence sharing most words with the question. */
    static List<Quote> quotes(String question, List<SearchResponse.Result> sources) {
        Set<String> terms = terms(question);
        List<Quote> quotes = new ArrayList<>();
        for (int i = 0; i < Math.min(PASSAGES, sources.size()); i++) {
            quotes.add(bestSentence(i, sources.get(i).text(), terms));
        }
        return quotes;
    }

    private static Quote bestSentence(int source, String text, Set<String> terms) {
        List<int[]> ranges = sentenceRanges(text);
        int[] best = ranges.get(0);
        long bestOverlap = -1;
        for (int[] range : ranges) {
            String sentence = text.substring(range[0], range[1]);
            long overlap = terms(sentence).stream().filter(terms::contains).count();
            if (overlap > bestOverlap && !sentence.isBlank()) {
                best = range;
                bestOverlap = overlap;
            }
        }
        String trimmed = text.substring(best[0], best[1]).strip().replaceAll("\\s+", " ");
        return new Quote(source, best[0], best[1], trimmed.length() > 400 ? trimmed.substring(0, 400) + "…" : trimmed);
    }

    /** The text's sentences as ranges, without surrounding whitespace. */
    private static List<int[]> sentenceRanges(String text) {
        int lead = 0;
        int tail = text.length();
        while (lead < tail && Character.isWhitespace(text.charAt(lead))) {
            lead++;
        }
        while (tail > lead && Character.isWhitespace(text.charAt(tail - 1))) {
            tail--;
        }
        List<int[]> ranges = new ArrayList<>();
        java.util.regex.Matcher breaks = SENTENCE_BREAK.matcher(text).region(lead, tail);
        int start = lead;
        while (breaks.find()) {
            ranges.add(trimmed(text, start, breaks.start()));
            start = breaks.end();
        }
        ranges.add(trimmed(text, start, tail));
        return ranges;
    }

    private static int[] trimmed(String text, int start, int end) {
        while (start < end && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        return new int[] {start, end};
    }

    private static Set<String> terms(String text) {
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}_]+"))
                .filter(term -> term.length() > 1 && !STOP_WORDS.contains(term))
                .collect(Collectors.toSet());
    }
}
