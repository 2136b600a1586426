package dev.openrag.query.ask;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.openrag.knowledge.port.Correction;
import dev.openrag.query.search.SearchResponse;

/**
 * The answer without an LLM: corrections first, then from each of the best sources the whole sentence
 * sharing most words with the question, cited as [n]. Only prose is quoted: table rows, code blocks and
 * headings never are, and the quote is shown without its Markdown (list markers, emphasis, code ticks,
 * link targets). A source with no prose leaves its place to the next one. Deterministic and offline.
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

    /** A sentence ends after a full stop, question or exclamation mark followed by white space. */
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
    private static final Pattern TABLE_ROW = Pattern.compile("^\\s*\\|");
    private static final Pattern HEADING = Pattern.compile("^\\s*#{1,6}(\\s|$)");
    private static final Pattern RULE = Pattern.compile("^\\s*([-*_]\\s*){3,}$");
    /** A list item's or quote's marker at the start of a line: "- ", "* ", "+ ", "1. ", "2) ", "> ". */
    private static final Pattern LINE_MARKER = Pattern.compile("^\\s*(?:[-*+]|\\d{1,3}[.)]|>)\\s+");
    private static final Pattern LINK = Pattern.compile("!?\\[([^\\]\\n]*)\\]\\([^)\\s]*\\)");
    private static final Pattern EMPHASIS = Pattern.compile("\\*\\*|__|`+|(?<![\\p{L}\\p{N}])[*_](?=\\S)|(?<=\\S)[*_](?![\\p{L}\\p{N}])");

    /** The answer as sentences, each ending with its citation: the corrections, then the {@link #quotes}. */
    static List<String> sentences(List<Quote> quotes, List<Correction> corrections) {
        List<String> answer = new ArrayList<>();
        corrections.forEach(correction -> answer.add("Correction: " + correction.text().strip()));
        quotes.forEach(quote -> answer.add(quote.shown() + " [" + (quote.source() + 1) + "]"));
        if (answer.isEmpty()) {
            answer.add("No passage in this collection matches the question.");
        }
        return answer;
    }

    /** From each of the best sources that holds prose, up to {@link #PASSAGES}, the sentence sharing most words with the question. */
    static List<Quote> quotes(String question, List<SearchResponse.Result> sources) {
        Set<String> terms = terms(question);
        List<Quote> quotes = new ArrayList<>();
        for (int i = 0; i < sources.size() && quotes.size() < PASSAGES; i++) {
            Quote best = bestSentence(i, sources.get(i).text(), terms);
            if (best != null) {
                quotes.add(best);
            }
        }
        return quotes;
    }

    /**
     * The sources for an answer, at most {@code k}: the best hit of each document first, in rank order, then the
     * documents' further hits in rank order, so that an answer draws on several documents before a second chunk of one.
     */
    static List<SearchResponse.Result> diverse(List<SearchResponse.Result> ranked, int k) {
        Set<String> documents = new LinkedHashSet<>();
        List<SearchResponse.Result> first = new ArrayList<>();
        List<SearchResponse.Result> further = new ArrayList<>();
        for (SearchResponse.Result result : ranked) {
            (documents.add(result.documentId()) ? first : further).add(result);
        }
        first.addAll(further);
        return List.copyOf(first.subList(0, Math.min(k, first.size())));
    }

    /** A sentence candidate: its range in the text, its words in common with the question, whether it is a whole sentence. */
    private record Candidate(int start, int end, long overlap, boolean whole) {
    }

    private static Quote bestSentence(int source, String text, Set<String> terms) {
        Candidate best = prose(text).stream()
                .map(range -> new Candidate(range[0], range[1],
                        terms(text.substring(range[0], range[1])).stream().filter(terms::contains).count(),
                        endsAsSentence(text, range[1])))
                // a whole sentence that shares a word first, then the most words shared, then the earliest
                .min(Comparator.comparing((Candidate c) -> !(c.whole() && c.overlap() > 0))
                        .thenComparing(Candidate::overlap, Comparator.reverseOrder())
                        .thenComparingInt(Candidate::start))
                .orElse(null);
        if (best == null) {
            return null;
        }
        String shown = shown(text.substring(best.start(), best.end()));
        return new Quote(source, best.start(), best.end(), shown.length() > 400 ? shown.substring(0, 400) + "…" : shown);
    }

    private static boolean endsAsSentence(String text, int end) {
        char last = text.charAt(end - 1);
        return last == '.' || last == '!' || last == '?';
    }

    /**
     * The text's prose sentences as ranges, without surrounding white space or a leading list or quote marker:
     * paragraphs and list items split at sentence ends; table rows, fenced code, headings and rules left out.
     */
    static List<int[]> prose(String text) {
        List<int[]> sentences = new ArrayList<>();
        int blockStart = -1;
        int blockEnd = -1;
        boolean inFence = false;
        int lineStart = 0;
        while (lineStart <= text.length()) {
            int newline = text.indexOf('\n', lineStart);
            int lineEnd = newline < 0 ? text.length() : newline;
            String line = text.substring(lineStart, lineEnd);
            boolean fence = FENCE.matcher(line).find();
            boolean prose = !inFence && !fence && !line.isBlank() && !TABLE_ROW.matcher(line).find()
                    && !HEADING.matcher(line).find() && !RULE.matcher(line).matches();
            Matcher marker = LINE_MARKER.matcher(line);
            boolean startsItem = prose && marker.find();
            if (!prose || startsItem) {
                if (blockStart >= 0) {
                    split(text, blockStart, blockEnd, sentences);
                    blockStart = -1;
                }
            }
            if (prose) {
                if (blockStart < 0) {
                    blockStart = lineStart + (startsItem ? marker.end() : 0);
                }
                blockEnd = lineEnd;
            }
            if (fence) {
                inFence = !inFence;
            }
            if (newline < 0) {
                break;
            }
            lineStart = newline + 1;
        }
        if (blockStart >= 0) {
            split(text, blockStart, blockEnd, sentences);
        }
        return sentences;
    }

    private static void split(String text, int start, int end, List<int[]> into) {
        Matcher ends = SENTENCE_END.matcher(text).region(start, end);
        int from = start;
        while (ends.find()) {
            add(text, from, ends.start(), into);
            from = ends.end();
        }
        add(text, from, end, into);
    }

    private static void add(String text, int start, int end, List<int[]> into) {
        while (start < end && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        // a sentence holds words, not only punctuation or a lone marker
        if (text.substring(start, end).codePoints().filter(Character::isLetter).count() >= 2) {
            into.add(new int[] {start, end});
        }
    }

    /** The sentence as a reader sees it: one line, no list or quote markers, emphasis, code ticks or link targets. */
    static String shown(String sentence) {
        String plain = Arrays.stream(sentence.split("\n"))
                .map(line -> LINE_MARKER.matcher(line).replaceFirst(""))
                .collect(Collectors.joining(" "));
        plain = LINK.matcher(plain).replaceAll("$1");
        plain = EMPHASIS.matcher(plain).replaceAll("");
        return plain.strip().replaceAll("\\s+", " ");
    }

    private static Set<String> terms(String text) {
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}_]+"))
                .filter(term -> term.length() > 1 && !STOP_WORDS.contains(term))
                .map(ExtractiveAnswer::stem)
                .collect(Collectors.toSet());
    }

    /** A plural's or third person's "s" dropped, so "tests" meets "test" and "runs" meets "run". */
    private static String stem(String term) {
        return term.length() > 3 && term.endsWith("s") && !term.endsWith("ss") ? term.substring(0, term.length() - 1) : term;
    }
}
