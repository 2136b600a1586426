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

import org.tartarus.snowball.ext.EnglishStemmer;

import dev.openrag.knowledge.text.FulltextQuery;

/**
 * BM25 over one scope's memory texts, with that scope's statistics alone (document frequencies and
 * mean length). Neo4j's fulltext index scores a scope with statistics over every scope it holds,
 * so what other agents remember moved a scope's ranking (docs/benchmarks.md, LoCoMo on a shared
 * and on a fresh stack). Words are {@link MemoryText}'s: lower-cased letter and digit runs, so
 * "Caroline's" holds "caroline"; the query's are {@link MemoryText#queryTerms}. With stemming
 * ({@code openrag.memory.stemming}, on by default since it lifted LoCoMo recall on both the tune and
 * the check conversations with the search's other lists in place, docs/benchmarks.md), both sides
 * are matched by their Snowball English stems ({@link Stems}): a question asks "which books" or
 * "games won" of memories that say "a book" or "winning", "what did she research" of "researching". Scores are Lucene's BM25 ({@code k1} 1.2,
 * {@code b} 0.75), without its lossy length encoding.
 */
public final class ScopeWords {

    private static final double K1 = 1.2;
    private static final double B = 0.75;

    private final Map<String, int[][]> postings; // word -> {memory positions, counts}
    private final List<String> texts; // by position, read again for feedback terms (cheaper than a forward index)
    private final int[] lengths;
    private final double meanLength;
    private final boolean stemming;

    private ScopeWords(Map<String, int[][]> postings, List<String> texts, int[] lengths, boolean stemming) {
        this.stemming = stemming;
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
        Map<String, List<int[]>> building = new HashMap<>();
        int[] lengths = new int[texts.size()];
        Stems stems = new Stems(stemming);
        for (int i = 0; i < texts.size(); i++) {
            int memory = i;
            lengths[i] = counts(texts.get(i), stems,
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
        return new ScopeWords(postings, List.copyOf(texts), lengths, stemming);
    }

    /** Text {@code memory}, as given. */
    public String text(int memory) {
        return texts.get(memory);
    }

    /** Whether words are matched by their stems. */
    public boolean stemming() {
        return stemming;
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
        Stems stems = new Stems(stemming);
        for (int k = 0; k < more.size(); k++) {
            int memory = lengths.length + k;
            grownLengths[memory] = counts(more.get(k), stems, (word, count) -> append(grown, word, memory, count));
        }
        List<String> grownTexts = new ArrayList<>(texts.size() + more.size());
        grownTexts.addAll(texts);
        grownTexts.addAll(more);
        return new ScopeWords(grown, Collections.unmodifiableList(grownTexts), grownLengths, stemming);
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
        Stems stems = new Stems(stemming);
        for (int k = 0; k < kept.length; k++) {
            String text = replaced.get(kept[k]);
            if (text == null) {
                editedLengths[k] = lengths[kept[k]];
                editedTexts.add(texts.get(kept[k]));
            } else {
                int memory = k;
                editedLengths[k] = counts(text, stems, (word, count) -> append(edited, word, memory, count));
                editedTexts.add(text);
            }
        }
        return new ScopeWords(edited, Collections.unmodifiableList(editedTexts), editedLengths, stemming);
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

    /** Hands each word of {@code text} (as matched) to {@code posting} with its count; returns the text's length in words. */
    private static int counts(String text, Stems stems, BiConsumer<String, Integer> posting) {
        Map<String, Integer> counts = new HashMap<>();
        int length = 0;
        for (String word : FulltextQuery.words(text)) {
            if (!word.isEmpty()) {
                counts.merge(stems.of(word), 1, Integer::sum);
                length++;
            }
        }
        counts.forEach(posting);
        return length;
    }

    /**
     * Whether {@code terms} say nothing here: some of them are found, and either every one found is in every memory, or
     * every memory scores the same. The first ("Priya" in a scope of facts about Priya) ranks the memories by length
     * alone; the second ("Where does Sam live?" over "Sam works at Acme.", "Sam works at Globex.", "I live in Leeds." and
     * "I live in Hull.": each holds one of two words as common as the other) ranks them by nothing at all, and the order
     * of a tie would decide.
     */
    public boolean sayNothing(List<String> terms) {
        Stems stems = new Stems(stemming);
        List<int[][]> found = terms.stream().map(stems::of).distinct().map(postings::get).filter(java.util.Objects::nonNull).toList();
        if (found.isEmpty()) {
            return false;
        }
        if (found.stream().allMatch(posting -> posting[0].length == lengths.length)) {
            return true;
        }
        double[] scores = scores(terms);
        return java.util.Arrays.stream(scores).allMatch(score -> score > 0 && Math.abs(score - scores[0]) <= 1e-9 * scores[0]);
    }

    /** Every memory's BM25 score for the query terms (0 where none occurs), by position; terms of one stem count once. */
    public double[] scores(List<String> terms) {
        double[] scores = new double[lengths.length];
        int n = lengths.length;
        Stems stems = new Stems(stemming);
        Set<String> stemmed = new LinkedHashSet<>();
        terms.forEach(term -> stemmed.add(stems.of(term)));
        for (String term : stemmed) {
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
     * Pseudo-relevance feedback: the {@code count} words that best characterise the memories at
     * {@code positions}, by the sum over those memories of each stem's count times its idf in the
     * scope, each given as the first form met. Left out: the {@code known} words (the query's, by
     * stem), stop words, words of one or two letters, numbers, and words no other memory holds
     * (they cannot lead anywhere).
     */
    public List<String> feedbackTerms(List<Integer> positions, int count, Collection<String> known) {
        Map<String, Double> weights = new HashMap<>();
        Map<String, String> forms = new HashMap<>();
        Stems stems = new Stems(stemming);
        Set<String> knownStems = new HashSet<>();
        known.forEach(word -> knownStems.add(stems.of(word)));
        int n = lengths.length;
        for (int position : positions) {
            for (String word : FulltextQuery.words(texts.get(position))) {
                String stem = stems.of(word);
                int[][] posting = postings.get(stem);
                if (posting != null && posting[0].length > 1 && word.length() > 2 && !knownStems.contains(stem)
                        && !FulltextQuery.STOP_WORDS.contains(word) && !word.chars().allMatch(Character::isDigit)) {
                    int df = posting[0].length;
                    weights.merge(stem, Math.log(1 + (n - df + 0.5) / (df + 0.5)), Double::sum);
                    forms.putIfAbsent(stem, word);
                }
            }
        }
        return weights.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(count).map(entry -> forms.get(entry.getKey())).toList();
    }

    /**
     * Words as BM25 matches them here: Snowball's English (Porter2) stem, so "books" and "book",
     * "winning" and "win" are one term; without {@code stemming}, words as written. Each word is
     * stemmed once per use (a scope repeats its words); not thread-safe, so one per build or search.
     */
    static final class Stems {

        private final EnglishStemmer stemmer; // null: words as written (every search makes one of these)
        private final Map<String, String> known = new HashMap<>();

        Stems(boolean stemming) {
            this.stemmer = stemming ? new EnglishStemmer() : null;
        }

        String of(String word) {
            return stemmer == null ? word : known.computeIfAbsent(word, w -> {
                stemmer.setCurrent(w);
                stemmer.stem();
                return stemmer.getCurrent();
            });
        }
    }
}
