package dev.openrag.memory;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * bigrams), so a word inside a sentence is found without a dictionary; mostly Cyrillic is Russian. A text in Latin script is in the language whose Snowball stop set (Lucene's)
 * holds most of its words. Each language drops its own stop words and stems with its own Snowball stemmer. Where
 * languages tie (no stop word at all, or as many of two), a question is read in each of them and its terms or-ed,
 * so that it finds a memory in whichever of those languages the memory is; a memory is read in the first of them.
 * <p>
 * Apostrophes split words ("Caroline's" holds "caroline", "l'hôtel" holds "hôtel"). Thread-safe.
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

    /** Apostrophes (straight and typographic) are read as spaces. */
    private static final Pattern APOSTROPHE = Pattern.compile("['\u2019\u02bc`]");

    private final boolean stemming;
    /** Each thread's stemmers (Snowball's keep state), made when first needed. */
    private static final ThreadLocal<Map<Language, SnowballStemmer>> STEMMERS = ThreadLocal.withInitial(() -> new EnumMap<>(Language.class));

    private final Analyzer plain;
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
        return "snowball-cjk-3" + (stemming ? "-stemmed" : "-plain");
    }

    /**
     * The terms of a memory's text, in order, each as often as it occurs. A text whose stop words tie between languages
     * is read in the first of them (English, then German, Spanish, French, ...): one reading keeps its length and its
     * feedback words those of one language, and a question reads itself in each language it may be in.
     */
    public List<String> ofText(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        if (script(text) == Language.CJK) {
            return analyze(cjk, text);
        }
        List<String> words = analyze(plain, text);
        return read(languagesOf(text, words).get(0), words);
    }

    /** The terms of a question: each reading's (one, or each tied language's), each term once, at most {@link #MAX_QUERY_TERMS}. */
    public List<String> ofQuery(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        Set<String> terms = new LinkedHashSet<>();
        if (script(text) == Language.CJK) {
            terms.addAll(analyze(cjkQuestions, text));
        } else {
            List<String> words = analyze(plain, text);
            for (Language language : languagesOf(text, words)) {
                terms.addAll(read(language, words));
            }
        }
        return terms.stream().limit(MAX_QUERY_TERMS).toList();
    }

    /** {@code words} (lower-cased Unicode words) less {@code language}'s stop words, stemmed by its stemmer where stemming. */
    private List<String> read(Language language, List<String> words) {
        SnowballStemmer stemmer = stemming && language.stemmer != null ? STEMMERS.get().computeIfAbsent(language, l -> l.stemmer.get()) : null;
        List<String> terms = new ArrayList<>(words.size());
        for (String word : words) {
            if (!language.stopWords.contains(word)) {
                if (stemmer == null) {
                    terms.add(word);
                } else {
                    stemmer.setCurrent(word);
                    stemmer.stem();
                    terms.add(stemmer.getCurrent());
                }
            }
        }
        return terms;
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

    /** The language(s) {@code text} is read in: one, or the tied ones. */
    List<Language> languagesOf(String text) {
        return script(text) == Language.CJK ? List.of(Language.CJK) : languagesOf(text, analyze(plain, text));
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

    /** The language(s) of a text without CJK characters, whose words are {@code words}. */
    private static List<Language> languagesOf(String text, List<String> words) {
        if (script(text) == Language.RUSSIAN) {
            return List.of(Language.RUSSIAN);
        }
        if (words.stream().noneMatch(word -> word.chars().anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.LATIN))) {
            return List.of(words.isEmpty() || words.stream().allMatch(word -> word.chars().allMatch(Character::isDigit))
                    ? Language.ENGLISH : Language.OTHER); // digits alone read the same in any Latin language
        }
        int best = 0;
        List<Language> tied = new ArrayList<>(Language.LATIN);
        for (Language language : Language.LATIN) {
            int count = 0;
            for (String word : words) {
                if (language.stopWords.contains(word)) {
                    count++;
                }
            }
            if (count > best) {
                best = count;
                tied = new ArrayList<>(List.of(language));
            } else if (count == best && count > 0) {
                tied.add(language);
            }
        }
        return tied;
    }

    private static List<String> analyze(Analyzer analyzer, String text) {
        List<String> terms = new ArrayList<>();
        try (TokenStream stream = analyzer.tokenStream("text", APOSTROPHE.matcher(text).replaceAll(" "))) {
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
