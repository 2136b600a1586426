package dev.openrag.memory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * BM25 over one scope's memory texts, with that scope's statistics alone (document frequencies and
 * mean length). Neo4j's fulltext index scores a scope with statistics over every scope it holds,
 * so what other agents remember moved a scope's ranking (docs/benchmarks.md, LoCoMo on a shared
 * and on a fresh stack). Terms are {@link MemoryWords}': each text read in its own language, its stop
 * words dropped and, with stemming ({@code openrag.memory.stemming}, on by default since it lifted LoCoMo
 * recall, docs/benchmarks.md), its words stemmed by that language's Snowball stemmer; Chinese, Japanese
 * and Korean as character bigrams. A query's terms are {@link MemoryWords#ofQuery} of the same reading
 * ({@link #terms}). Scores are Lucene's BM25 ({@code k1} 1.2, {@code b} 0.75), without its lossy length encoding.
 */
public final class ScopeWords {

    private static final double K1 = 1.2;
    private static final double B = 0.75;

    private final Map<String, int[][]> postings; // word -> {memory positions, counts}
    private final List<String> texts; // by position, read again for feedback terms (cheaper than a forward index)
    private final int[] lengths;
    private final double meanLength;
    private final MemoryWords words;

    private ScopeWords(Map<String, int[][]> postings, List<String> texts, int[] lengths, MemoryWords words) {
        this.words = words;
        this.postings = postings;
        this.texts = texts;
        this.lengths = lengths;
        long total = 0;
        for (int length : lengths) {
            total += length;
        }
        this.meanLength = lengths.length == 0 ? 1 : Math.max(1, (double) total / lengths.length);
    }

    /** The words of each text, in order: text i is memory i of the scope; matched as written. */
    public static ScopeWords of(List<String> texts) {
        return of(texts, false);
    }

    /** The words of each text, in order: text i is memory i of the scope; {@code stemming}: matched by their stems, else as written. */
    public static ScopeWords of(List<String> texts, boolean stemming) {
        return of(texts, MemoryWords.of(stemming));
    }

    /** The terms of each text as {@code words} reads them, in order: text i is memory i of the scope. */
    public static ScopeWords of(List<String> texts, MemoryWords words) {
        return of(texts, null, words);
    }

    /**
     * {@link #of(List, MemoryWords)} where {@code terms} (null, or null at a text) gives a text's terms as {@code words}
     * read them before (stored beside the memory): the text is then not read again.
     */
    public static ScopeWords of(List<String> texts, List<List<String>> terms, MemoryWords words) {
        Map<String, List<int[]>> building = new HashMap<>();
        int[] lengths = new int[texts.size()];
        for (int i = 0; i < texts.size(); i++) {
            int memory = i;
            List<String> known = terms == null ? null : terms.get(i);
            lengths[i] = counts(known != null ? known : words.ofText(texts.get(i)),
                    (word, count) -> building.computeIfAbsent(word, w -> new ArrayList<>()).add(new int[] {memory, count}));
        }
        Map<String, int[][]> postings = new HashMap<>();
        building.forEach((word, list) -> {
            int[][] pair = new int[2][list.size()];
            for (int j = 0; j < list.size(); j++) {
                pair[0][j] = list.get(j)[0];
                pair[1][j] = list.get(j)[1];
            }
            postings.put(word, pair);
        });
        return new ScopeWords(postings, List.copyOf(texts), lengths, words);
    }

    /** Text {@code memory}, as given. */
    public String text(int memory) {
        return texts.get(memory);
    }

    /** Whether words are matched by their stems. */
    public boolean stemming() {
        return words.stemming();
    }

    /** How texts are read here. */
    public MemoryWords words() {
        return words;
    }

    /** A question's terms as {@link #scores} takes them: read as the memories are ({@link MemoryWords#ofQuery}). */
    public List<String> terms(String question) {
        return words.ofQuery(question);
    }

    /**
     * These words with {@code more} texts after them (the scope's memories added since): as {@link #of} over all the
     * texts, at the cost of the new texts' words (the postings of the other words are shared).
     */
    public ScopeWords with(List<String> more) {
        if (more.isEmpty()) {
            return this;
        }
        Map<String, int[][]> grown = new HashMap<>(postings);
        int[] grownLengths = Arrays.copyOf(lengths, lengths.length + more.size());
        for (int k = 0; k < more.size(); k++) {
            int memory = lengths.length + k;
            grownLengths[memory] = counts(words.ofText(more.get(k)), (word, count) -> append(grown, word, memory, count));
        }
        List<String> grownTexts = new ArrayList<>(texts.size() + more.size());
        grownTexts.addAll(texts);
        grownTexts.addAll(more);
        return new ScopeWords(grown, Collections.unmodifiableList(grownTexts), grownLengths, words);
    }

    /**
     * These words with only the memories at {@code kept} left (positions here, ascending; they become 0, 1, ...), and
     * the texts {@code replaced} (by position here) given anew: as {@link #of} over the texts that leaves, at the cost of
     * the new texts' words and one pass over the postings (a deletion moves the memories after it), without reading the
     * other texts' words again.
     */
    public ScopeWords edited(int[] kept, Map<Integer, String> replaced) {
        int[] moved = new int[lengths.length];
        Arrays.fill(moved, -1);
        for (int k = 0; k < kept.length; k++) {
            moved[kept[k]] = replaced.containsKey(kept[k]) ? -1 : k; // a new text's words are counted below
        }
        Map<String, int[][]> edited = new HashMap<>();
        postings.forEach((word, posting) -> {
            int[] memories = new int[posting[0].length];
            int[] counts = new int[posting[0].length];
            int df = 0;
            for (int j = 0; j < posting[0].length; j++) {
                int to = moved[posting[0][j]];
                if (to >= 0) {
                    memories[df] = to;
                    counts[df++] = posting[1][j];
                }
            }
            if (df > 0) {
                edited.put(word, new int[][] {Arrays.copyOf(memories, df), Arrays.copyOf(counts, df)});
            }
        });
        int[] editedLengths = new int[kept.length];
        List<String> editedTexts = new ArrayList<>(kept.length);
        for (int k = 0; k < kept.length; k++) {
            String text = replaced.get(kept[k]);
            if (text == null) {
                editedLengths[k] = lengths[kept[k]];
                editedTexts.add(texts.get(kept[k]));
            } else {
                int memory = k;
                editedLengths[k] = counts(words.ofText(text), (word, count) -> append(edited, word, memory, count));
                editedTexts.add(text);
            }
        }
        return new ScopeWords(edited, Collections.unmodifiableList(editedTexts), editedLengths, words);
    }

    /** {@code postings} with memory {@code memory} holding {@code word} {@code count} times, after the others. */
    private static void append(Map<String, int[][]> postings, String word, int memory, int count) {
        int[][] old = postings.get(word);
        int df = old == null ? 0 : old[0].length;
        int[][] posting = old == null ? new int[2][1] : new int[][] {Arrays.copyOf(old[0], df + 1), Arrays.copyOf(old[1], df + 1)};
        posting[0][df] = memory;
        posting[1][df] = count;
        postings.put(word, posting);
    }

    /** Hands each of a text's {@code terms} to {@code posting} with its count; returns the text's length in terms. */
    private static int counts(List<String> terms, BiConsumer<String, Integer> posting) {
        Map<String, Integer> counts = new HashMap<>();
        terms.forEach(term -> counts.merge(term, 1, Integer::sum));
        counts.forEach(posting);
        return terms.size();
    }

    /**
     * Whether {@code terms} say nothing here: some of them are found, and either every one found is in every memory, or
     * every memory scores the same. The first (a name every memory of a scope about one person holds) ranks the memories
     * by length alone; the second (two words found, each memory holding one of them, the two as common and the memories
     * as long) ranks them by nothing at all, and the order of a tie would decide.
     */
    public boolean sayNothing(List<String> terms) {
        List<int[][]> found = terms.stream().distinct().map(postings::get).filter(java.util.Objects::nonNull).toList();
        if (found.isEmpty()) {
            return false;
        }
        if (found.stream().allMatch(posting -> posting[0].length == lengths.length)) {
            return true;
        }
        double[] scores = scores(terms);
        return java.util.Arrays.stream(scores).allMatch(score -> score > 0 && Math.abs(score - scores[0]) <= 1e-9 * scores[0]);
    }

    /** Every memory's BM25 score for the query terms ({@link #terms}; 0 where none occurs), by position; each term counts once. */
    public double[] scores(List<String> terms) {
        double[] scores = new double[lengths.length];
        int n = lengths.length;
        for (String term : new LinkedHashSet<>(terms)) {
            int[][] posting = postings.get(term);
            if (posting == null) {
                continue;
            }
            int df = posting[0].length;
            double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
            for (int j = 0; j < df; j++) {
                int memory = posting[0][j];
                int tf = posting[1][j];
                scores[memory] += idf * tf / (tf + K1 * (1 - B + B * lengths[memory] / meanLength));
            }
        }
        return scores;
    }

    /**
     * Pseudo-relevance feedback: the {@code count} terms that best characterise the memories at
     * {@code positions}, by the sum over those memories of each term's count times its idf in the
     * scope. Left out: the {@code known} terms (the query's), stop words (no text holds them), terms
     * of one or two characters (a CJK bigram is two, and too common to lead anywhere), numbers, and
     * terms no other memory holds (they cannot lead anywhere).
     */
    public List<String> feedbackTerms(List<Integer> positions, int count, Collection<String> known) {
        Map<String, Double> weights = new HashMap<>();
        Set<String> knownTerms = new HashSet<>(known);
        int n = lengths.length;
        for (int position : positions) {
            for (String term : words.ofText(texts.get(position))) {
                int[][] posting = postings.get(term);
                if (posting != null && posting[0].length > 1 && term.length() > 2 && !knownTerms.contains(term)
                        && !term.chars().allMatch(Character::isDigit)) {
                    int df = posting[0].length;
                    weights.merge(term, Math.log(1 + (n - df + 0.5) / (df + 0.5)), Double::sum);
                }
            }
        }
        return weights.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(count).map(Map.Entry::getKey).toList();
    }
}
