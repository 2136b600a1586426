package dev.openrag.memory;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.WordlistLoader;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cjk.CJKWidthFilter;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.util.IOUtils;
import org.tartarus.snowball.SnowballStemmer;
import org.tartarus.snowball.ext.DanishStemmer;
import org.tartarus.snowball.ext.DutchStemmer;
import org.tartarus.snowball.ext.EnglishStemmer;
import org.tartarus.snowball.ext.FinnishStemmer;
import org.tartarus.snowball.ext.FrenchStemmer;
import org.tartarus.snowball.ext.GermanStemmer;
import org.tartarus.snowball.ext.ItalianStemmer;
import org.tartarus.snowball.ext.NorwegianStemmer;
import org.tartarus.snowball.ext.PortugueseStemmer;
import org.tartarus.snowball.ext.RussianStemmer;
import org.tartarus.snowball.ext.SpanishStemmer;
import org.tartarus.snowball.ext.SwedishStemmer;

/**
 * The words of memories and questions, each in its own language: what BM25 matches, in a scope's copy
 * ({@link ScopeWords}) and in Neo4j's {@code memory_words} index alike (which holds these terms, split on spaces).
 * <p>
 * A text's language is read from its script first, by proportion (one foreign character does not decide it): mostly
 * Han, kana or Hangul make it Chinese, Japanese or Korean, cut into overlapping pairs of characters (Lucene's CJK
 * bigrams), so a word inside a sentence is found without a dictionary; mostly Cyrillic is Russian. A text in Latin
 * script is in the language whose Snowball stop set (Lucene's) holds most of its function words, read so that a name
 * or an apostrophe's piece does not decide it ({@link #languagesOf(String, List)}). Each language drops its own stop
 * words and stems with its own Snowball stemmer. Where languages tie (no stop word at all, or as many of two), a
 * question is read in each of them and its terms or-ed, and a memory is read in the first of them; a question is read
 * in each language before its own too, so that a memory in its language that tied with an earlier one meets it on the
 * same stems.
 * <p>
 * Apostrophes split the words read ("Caroline's" holds "caroline", "l'hôtel" holds "hôtel"), unless the language lists
 * the whole word as a stop word ("don't", "it's" in English). Thread-safe.
 */
public final class MemoryWords {

    /** The most terms a question keeps (Lucene's clause limit stays far away; BM25 ranks the rest). */
    public static final int MAX_QUERY_TERMS = 64;

    /** A language this reads, with its Snowball stop set and stemmer. */
    enum Language {
        ENGLISH("english", EnglishStemmer::new), GERMAN("german", GermanStemmer::new), SPANISH("spanish", SpanishStemmer::new),
        FRENCH("french", FrenchStemmer::new), ITALIAN("italian", ItalianStemmer::new), PORTUGUESE("portuguese", PortugueseStemmer::new),
        DUTCH("dutch", DutchStemmer::new), SWEDISH("swedish", SwedishStemmer::new), DANISH("danish", DanishStemmer::new),
        NORWEGIAN("norwegian", NorwegianStemmer::new), FINNISH("finnish", FinnishStemmer::new), RUSSIAN("russian", RussianStemmer::new),
        /** Chinese, Japanese and Korean: character bigrams. */
        CJK(null, null),
        /** Any other script: words as written, lower-cased. */
        OTHER(null, null);

        final CharArraySet stopWords;
        final Supplier<SnowballStemmer> stemmer;

        Language(String snowball, Supplier<SnowballStemmer> stemmer) {
            this.stopWords = snowball == null ? CharArraySet.EMPTY_SET : snowballStopSet(snowball + "_stop.txt");
            this.stemmer = stemmer;
        }

        /** The languages told apart by their stop words (Latin script). */
        static final List<Language> LATIN = List.of(ENGLISH, GERMAN, SPANISH, FRENCH, ITALIAN, PORTUGUESE, DUTCH, SWEDISH, DANISH,
                NORWEGIAN, FINNISH);
    }

    /** Apostrophes, straight and typographic: read as one, which a word keeps inside it (UAX #29). */
    private static final Pattern APOSTROPHE = Pattern.compile("['\u2019\u02bc`]");

    private final boolean stemming;
    /** Each thread's stemmers (Snowball's keep state), made when first needed. */
    private static final ThreadLocal<Map<Language, SnowballStemmer>> STEMMERS = ThreadLocal.withInitial(() -> new EnumMap<>(Language.class));

    private final Analyzer plain;
    /** Unicode words as written (case kept), for what they say about a text's language. */
    private final Analyzer asWritten;
    private final Analyzer cjk;
    /** A question's CJK characters as bigrams alone (a memory's hold its characters too, so that one character finds it). */
    private final Analyzer cjkQuestions;

    private static final MemoryWords STEMMED = new MemoryWords(true);
    private static final MemoryWords PLAIN = new MemoryWords(false);

    /** The reading with or without stemming (one of each, shared). */
    public static MemoryWords of(boolean stemming) {
        return stemming ? STEMMED : PLAIN;
    }

    /** @param stemming whether words are matched by their stems (else as written, stop words still dropped) */
    private MemoryWords(boolean stemming) {
        this.stemming = stemming;
        this.cjk = cjk(true);
        this.cjkQuestions = cjk(false);
        this.plain = plain();
        this.asWritten = new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String field) {
                return new TokenStreamComponents(new StandardTokenizer());
            }
        };
    }

    /** Whether words are matched by their stems. */
    public boolean stemming() {
        return stemming;
    }

    /**
     * What this reading is, stored beside each memory's terms: a memory whose terms were read another way (an older
     * version, the other stemming setting) is read again when the store starts.
     */
    public String version() {
        return "snowball-cjk-5" + (stemming ? "-stemmed" : "-plain");
    }

    /**
     * The terms of a memory's text, in order, each as often as it occurs. A text whose stop words tie between languages
     * is read in the first of them (English, then German, Spanish, French, ...): one reading keeps its length and its
     * feedback words those of one language, and a question reads itself in each language such a memory may have been
     * read in ({@link #ofQuery}).
     */
    public List<String> ofText(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        if (script(text) == Language.CJK) {
            return analyze(cjk, text, " ");
        }
        List<String> words = analyze(plain, text, "'");
        return read(languagesOf(text, words).get(0), words);
    }

    /**
     * The terms of a question, each once, at most {@link #MAX_QUERY_TERMS}: its reading in each language it may be in
     * (one, or the tied ones), and its content words in each language read before those: a memory in the question's
     * language whose stop words tied it with an earlier one was read in that one, and so meets the question on the same
     * stems.
     */
    public List<String> ofQuery(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        Set<String> terms = new LinkedHashSet<>();
        if (script(text) == Language.CJK) {
            terms.addAll(analyze(cjkQuestions, text, " "));
        } else {
            List<String> words = analyze(plain, text, "'");
            List<Language> languages = languagesOf(text, words);
            for (Language language : languages) { // its own first: the terms past the limit are those of other readings
                terms.addAll(read(language, words));
            }
            int last = languages.stream().mapToInt(Language.LATIN::indexOf).max().orElse(-1);
            if (last > 0) { // the question's content words only: its own function words are no content in another reading
                List<String> content = words.stream().filter(word -> languages.stream().noneMatch(l -> l.stopWords.contains(word))).toList();
                for (Language earlier : Language.LATIN.subList(0, last)) {
                    terms.addAll(read(earlier, content));
                }
            }
        }
        return terms.stream().limit(MAX_QUERY_TERMS).toList();
    }

    /** {@code words} (lower-cased Unicode words) less {@code language}'s stop words, stemmed by its stemmer where stemming. */
    private List<String> read(Language language, List<String> words) {
        List<String> terms = new ArrayList<>(words.size());
        for (String word : words) {
            terms(language, word, terms::add);
        }
        return terms;
    }

    /**
     * {@code word}'s terms in {@code language}: none for a stop word, written whole too ("don't", "it's"); else each
     * piece between its apostrophes ("caroline's", "l'hôtel") that is no stop word, stemmed where stemming.
     */
    private void terms(Language language, String word, Consumer<String> out) {
        if (word.indexOf('\'') < 0) {
            String term = term(language, word);
            if (term != null) {
                out.accept(term);
            }
            return;
        }
        if (language.stopWords.contains(word)) {
            return;
        }
        for (String piece : word.split("'")) {
            String term = piece.isEmpty() ? null : term(language, piece);
            if (term != null) {
                out.accept(term);
            }
        }
    }

    /** {@code word}'s term in {@code language}: its stem where stemming, as written else; null for a stop word. */
    private String term(Language language, String word) {
        if (language.stopWords.contains(word)) {
            return null;
        }
        if (!stemming || language.stemmer == null) {
            return word;
        }
        SnowballStemmer stemmer = STEMMERS.get().computeIfAbsent(language, l -> l.stemmer.get());
        stemmer.setCurrent(word);
        stemmer.stem();
        return stemmer.getCurrent();
    }

    /** The terms of a memory's text as stored for Neo4j's {@code memory_words} index (whitespace-separated). */
    public String stored(String text) {
        return String.join(" ", ofText(text));
    }

    /** The Lucene query for {@code terms} ({@link #ofQuery}): any may match, each quoted so that none reads as syntax; empty for none. */
    public static String luceneQuery(List<String> terms) {
        List<String> quoted = new ArrayList<>(terms.size());
        for (String term : terms) {
            quoted.add("\"" + term.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
        }
        return String.join(" OR ", quoted);
    }

    /**
     * Whether {@code word} (lower case) is a stop word of the language {@code text} is in (Lucene's Snowball stop sets),
     * where languages tie of each of them (a stop word of one only is a word of another: "cet" ties a sentence with
     * French, where it is one): a function word of the text's own language, for rules that leave such words out without
     * a list of their own.
     */
    static boolean isStopWordOf(String word, String text) {
        return stopWordsOf(text).test(word);
    }

    /** {@link #isStopWordOf} for many words of one {@code text}: its language read once. */
    static java.util.function.Predicate<String> stopWordsOf(String text) {
        List<Language> languages = PLAIN.languagesOf(text);
        return word -> !languages.isEmpty() && languages.stream().allMatch(language -> language.stopWords.contains(word));
    }

    /**
     * The content terms of {@code text} as word search reads it (stemmed, in its own language, its stop words out:
     * {@link #ofText}), each once, in order, each with a word of the text that gives it (as written, lower case): numbers
     * and single characters left out, so a CJK text gives its bigrams. For rules that compare what two texts say
     * without a word list of their own.
     */
    static Map<String, String> contentTerms(String text) {
        Map<String, String> terms = new java.util.LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return terms;
        }
        Consumer<String[]> keep = termAndWord -> {
            String term = termAndWord[0];
            if (term.codePointCount(0, term.length()) > 1 && !term.chars().allMatch(Character::isDigit)) {
                terms.putIfAbsent(term, termAndWord[1]);
            }
        };
        if (script(text) == Language.CJK) {
            analyze(STEMMED.cjk, text, " ").forEach(term -> keep.accept(new String[] {term, term}));
            return terms;
        }
        List<String> words = analyze(STEMMED.plain, text, "'");
        Language language = STEMMED.languagesOf(text, words).get(0);
        for (String word : words) {
            STEMMED.terms(language, word, term -> keep.accept(new String[] {term, word}));
        }
        return terms;
    }

    /**
     * How many words of {@code text} give the content {@code terms} (of {@link #contentTerms}), each word once: in a CJK
     * text the overlapping bigrams of one run of characters are one word ("办公室" gives "办公" and "公室"); elsewhere a
     * term is a word.
     */
    static int wordsAmong(String text, Set<String> terms) {
        if (text == null || terms.isEmpty() || script(text) != Language.CJK) {
            return terms.size();
        }
        Set<String> words = new LinkedHashSet<>();
        StringBuilder word = new StringBuilder();
        int end = -1;
        for (Gram gram : cjkGrams(text)) {
            if (!terms.contains(gram.term())) {
                continue;
            }
            if (word.length() > 0 && gram.start() < end) { // overlaps the word so far: its next character
                word.append(gram.term(), gram.term().offsetByCodePoints(0, 1), gram.term().length());
            } else {
                if (word.length() > 0) {
                    words.add(word.toString());
                }
                word.setLength(0);
                word.append(gram.term());
            }
            end = gram.end();
        }
        if (word.length() > 0) {
            words.add(word.toString());
        }
        return words.size();
    }

    /** A token of CJK analysis with where it stands in the text read: a bigram, a lone character, or a word of another script. */
    record Gram(String term, int start, int end) {
    }

    /**
     * {@code text} as word search reads a CJK question ({@link #ofQuery}): overlapping bigrams of each run of Han, kana
     * or Hangul, a character standing alone as itself, words of other scripts lower-cased; each with its offsets in
     * {@code text}. What finds a name inside a sentence of characters the way a search finds a word there.
     */
    static List<Gram> cjkGrams(String text) {
        List<Gram> grams = new ArrayList<>();
        try (TokenStream stream = STEMMED.cjkQuestions.tokenStream("text", text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            OffsetAttribute offset = stream.addAttribute(OffsetAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                grams.add(new Gram(term.toString(), offset.startOffset(), offset.endOffset()));
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a string reader does not fail
        }
        return grams;
    }

    /** The language(s) {@code text} is read in: one, or the tied ones. */
    List<Language> languagesOf(String text) {
        return script(text) == Language.CJK ? List.of(Language.CJK) : languagesOf(text, analyze(plain, text, "'"));
    }

    /**
     * The script most of {@code text} is written in, by proportion: CJK when its Han, kana and Hangul characters are at
     * least as many as its words in other scripts (a CJK character says about as much as a word: "我和Anna去了Berlin" is
     * Chinese), Russian when more of its words are Cyrillic than in any other script; else null. One foreign character or
     * name does not decide the language of a text written in another script.
     */
    private static Language script(String text) {
        int cjk = 0;
        int cyrillicWords = 0;
        int otherWords = 0;
        Character.UnicodeScript previous = null; // the script of the letter before, null after a non-letter
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            if (!Character.isLetter(c)) {
                previous = null;
                continue;
            }
            Character.UnicodeScript script = Character.UnicodeScript.of(c);
            if (script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                    || script == Character.UnicodeScript.KATAKANA || script == Character.UnicodeScript.HANGUL) {
                cjk++;
                previous = null;
                continue;
            }
            if (script != previous) { // a word begins
                if (script == Character.UnicodeScript.CYRILLIC) {
                    cyrillicWords++;
                } else {
                    otherWords++;
                }
            }
            previous = script;
        }
        if (cjk > 0 && cjk >= cyrillicWords + otherWords) {
            return Language.CJK;
        }
        return cyrillicWords > otherWords ? Language.RUSSIAN : null;
    }

    /**
     * The language(s) of a text without CJK characters, whose words are {@code words}: the languages whose stop words
     * say most, each word as much as it is likely a function word of the text rather than a name. A capitalised word
     * inside a sentence says nothing (a name, or a German noun: "Will", "Per", "Alle"), one opening a sentence half
     * ("Die", but also "Will Smith ..."), and so does every word of a text written all in capitalised words ("Hi Will", a
     * title), where capitals tell nothing; less than one word's worth of such evidence tells no language (all tie). A
     * word with an apostrophe counts whole in a language that lists it whole
     * ("don't", "it's" are English) and else by what comes before the apostrophe (an elision: "l'", "qu'", "dell'"), never by
     * its pieces ("m" of "I'm" is no French word). Of languages that say as much, those that drop fewest of {@code words}
     * (keep most content) remain; a text with no such evidence at all is read by its stop words as written.
     */
    private List<Language> languagesOf(String text, List<String> words) {
        if (script(text) == Language.RUSSIAN) {
            return List.of(Language.RUSSIAN);
        }
        if (words.stream().noneMatch(word -> word.chars().anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.LATIN))) {
            return List.of(words.isEmpty() || words.stream().allMatch(word -> word.chars().allMatch(Character::isDigit))
                    ? Language.ENGLISH : Language.OTHER); // digits alone read the same in any Latin language
        }
        List<Evidence> evidence = evidence(text);
        double[] weighted = new double[Language.LATIN.size()];
        int[] dropped = new int[Language.LATIN.size()];
        boolean anyWeighted = false;
        for (int i = 0; i < weighted.length; i++) {
            Language language = Language.LATIN.get(i);
            for (Evidence word : evidence) {
                if (word.of(language)) {
                    weighted[i] += word.weight();
                }
            }
            for (String word : words) {
                if (language.stopWords.contains(word)) {
                    dropped[i]++;
                }
            }
            anyWeighted |= weighted[i] > 0;
        }
        // without a function word written as one, the stop words as written decide (a text all in capitals)
        double[] said = anyWeighted ? weighted : Arrays.stream(dropped).asDoubleStream().toArray();
        List<Language> best = new ArrayList<>();
        int bestAt = -1;
        for (int i = 0; i < said.length; i++) {
            int order = bestAt < 0 ? 1 : Double.compare(said[i], said[bestAt]) != 0 ? Double.compare(said[i], said[bestAt])
                    : Integer.compare(dropped[bestAt], dropped[i]); // as much said: the one keeping more words first
            if (order > 0) {
                best.clear();
                bestAt = i;
            }
            if (order >= 0) {
                best.add(Language.LATIN.get(i));
            }
        }
        // a text of capitalised words only ("Hi Will"), less than one word's worth of which says a language: each may be a
        // name, so no language is told; a sentence's lower-case words vouch for its capitalised opener ("Die Katze schläft.")
        boolean onlyCapitalised = evidence.stream().allMatch(word -> word.weight() == 0.5);
        return said[bestAt] > 0 && (!anyWeighted || !onlyCapitalised || said[bestAt] >= 1) ? best : Language.LATIN;
    }

    /** A word of a text as it says what language the text is in: lower-cased, apostrophes straight, and how much it says. */
    private record Evidence(String word, double weight, boolean wholeSomewhere) {

        /** Whether this word is a stop word of {@code language}: whole, or (an elision) by what precedes its apostrophe. */
        boolean of(Language language) {
            int apostrophe = word.indexOf('\'');
            if (apostrophe < 0 || wholeSomewhere) {
                return language.stopWords.contains(word);
            }
            return apostrophe > 0 && language.stopWords.contains(word.substring(0, apostrophe));
        }
    }

    /** The words of {@code text} as written (Unicode words, apostrophes kept inside them), as evidence of its language. */
    private List<Evidence> evidence(String text) {
        String straight = APOSTROPHE.matcher(text).replaceAll("'");
        List<Evidence> evidence = new ArrayList<>();
        List<String> written = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        try (TokenStream stream = asWritten.tokenStream("text", straight)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            OffsetAttribute offset = stream.addAttribute(OffsetAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                written.add(term.toString());
                starts.add(offset.startOffset());
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a string reader does not fail
        }
        // every word capitalised ("Hi Will", a title): capitals tell no name from a function word, each word may be either
        boolean titleCase = written.stream().filter(w -> Character.isLetter(w.codePointAt(0)))
                .allMatch(w -> Character.isUpperCase(w.codePointAt(0))) && written.stream().anyMatch(w -> w.chars().anyMatch(Character::isLowerCase));
        for (int i = 0; i < written.size(); i++) {
            String word = written.get(i).toLowerCase(Locale.ROOT);
            double weight = 1;
            if (Character.isUpperCase(written.get(i).codePointAt(0))) {
                weight = titleCase || opensSentence(straight, starts.get(i)) ? 0.5
                        : written.get(i).codePointCount(0, written.get(i).length()) > 1 ? 0 : 1; // "I" is no name
            }
            boolean whole = word.indexOf('\'') >= 0 && Language.LATIN.stream().anyMatch(l -> l.stopWords.contains(word));
            evidence.add(new Evidence(word, weight, whole));
        }
        return evidence;
    }

    /** Whether the word at {@code start} opens a sentence: nothing but spaces, quotes or brackets since the text's start or an end mark. */
    private static boolean opensSentence(String text, int start) {
        for (int i = start - 1; i >= 0; i--) {
            char c = text.charAt(i);
            if (c == '.' || c == '!' || c == '?' || c == '\u2026' || c == ':' || c == ';' || c == '\n') {
                return true;
            }
            if (Character.isLetterOrDigit(c)) {
                return false;
            }
        }
        return true;
    }

    /** The tokens of {@code text} with its apostrophes read as {@code apostrophe} (straight: kept inside words; a space: split). */
    private static List<String> analyze(Analyzer analyzer, String text, String apostrophe) {
        List<String> terms = new ArrayList<>();
        try (TokenStream stream = analyzer.tokenStream("text", APOSTROPHE.matcher(text).replaceAll(apostrophe))) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                terms.add(term.toString());
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a string reader does not fail
        }
        return terms;
    }

    /** Unicode words (UAX #29), lower-cased: what each language's stop words and stemmer then read. */
    private static Analyzer plain() {
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String field) {
                Tokenizer source = new StandardTokenizer();
                return new TokenStreamComponents(source, new LowerCaseFilter(source));
            }
        };
    }

    /**
     * Lucene's CJK analysis: full- and half-width forms folded, bigrams of Han, kana and Hangul (with {@code unigrams},
     * each character too, as a memory is indexed: a one-character question then finds it), other words lower-cased.
     */
    private static Analyzer cjk(boolean unigrams) {
        CharArraySet stopWords = CJKAnalyzer.getDefaultStopSet();
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String field) {
                Tokenizer source = new StandardTokenizer();
                TokenStream result = new CJKWidthFilter(source);
                result = new LowerCaseFilter(result);
                result = new CJKBigramFilter(result, CJKBigramFilter.HAN | CJKBigramFilter.HIRAGANA | CJKBigramFilter.KATAKANA
                        | CJKBigramFilter.HANGUL, unigrams);
                return new TokenStreamComponents(source, new StopFilter(result, stopWords));
            }
        };
    }

    private static CharArraySet snowballStopSet(String resource) {
        try (Reader reader = IOUtils.getDecodingReader(
                IOUtils.requireResourceNonNull(SnowballFilter.class.getResourceAsStream(resource), resource), StandardCharsets.UTF_8)) {
            return CharArraySet.unmodifiableSet(WordlistLoader.getSnowballWordSet(reader));
        } catch (IOException e) {
            throw new UncheckedIOException("Lucene's " + resource + " could not be read", e);
        }
    }
}
