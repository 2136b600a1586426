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

    /** The answer as sentences, each ending with its citation. */
    static List<String> sentences(String question, List<SearchResponse.Result> sources, List<Correction> corrections) {
        List<String> answer = new ArrayList<>();
        corrections.forEach(correction -> answer.add("Correction: " + correction.text().strip()));
        Set<String> terms = terms(question);
        for (int i = 0; i < Math.min(PASSAGES, sources.size()); i++) {
            answer.add(bestSentence(sources.get(i).text(), terms) + " [" + (i + 1) + "]");
        }
        if (answer.isEmpty()) {
            answer.add("No passage in this collection matches the question.");
        }
        return answer;
    }

    private static String bestSentence(String text, Set<String> terms) {
        String[] sentences = text.strip().split("(?<=[.!?])\\s+|\\n\\s*\\n");
        String best = sentences[0];
        long bestOverlap = -1;
        for (String sentence : sentences) {
            long overlap = terms(sentence).stream().filter(terms::contains).count();
            if (overlap > bestOverlap && !sentence.isBlank()) {
                best = sentence;
                bestOverlap = overlap;
            }
        }
        String trimmed = best.strip().replaceAll("\\s+", " ");
        return trimmed.length() > 400 ? trimmed.substring(0, 400) + "…" : trimmed;
    }

    private static Set<String> terms(String text) {
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}_]+"))
                .filter(term -> term.length() > 1 && !STOP_WORDS.contains(term))
                .collect(Collectors.toSet());
    }
}
