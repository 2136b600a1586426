package dev.openrag.query.cite;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.openrag.knowledge.browse.DocumentText;

/**
 * Spans of a document's text for hits and cited sentences. A span is only ever given when the
 * document's current text holds exactly the hit's or sentence's text there; otherwise the span says
 * why it has no offsets, never points somewhere wrong.
 */
public final class Spans {

    /** Sentences: up to a full stop, question or exclamation mark followed by space, or a blank line. */
    private static final Pattern SENTENCE = Pattern.compile("[^.!?\\n]+(?:[.!?]+(?=\\s|$)|(?=\\n\\s*\\n)|$)|[^\\n]+", Pattern.MULTILINE);
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    private static final Set<String> STOP = Set.of("the", "a", "an", "of", "to", "in", "and", "or", "is", "are", "was", "were",
            "be", "it", "its", "on", "for", "by", "with", "as", "at", "that", "this", "from");

    /** Why a hit has no span: its document has no text kept (stored before texts were, or its text write still pending). */
    public static final String NO_TEXT = "no text is kept for this document (stored before texts were, or its text is still being"
            + " written); ./openrag reindex rebuilds it";
    /** Why a hit has no span: the documents' texts did not answer in time ({@code degraded} names {@code spans}). */
    public static final String TEXTS_UNAVAILABLE = "the documents' texts did not answer in time";

    private Spans() {
    }

    /** The span of chunk {@code index} whose text is {@code chunkText}, in {@code text} (null: the document has no text kept). */
    public static Span ofChunk(DocumentText text, int index, String chunkText) {
        Optional<DocumentText.ChunkSpan> span = text.chunk(index);
        if (span.isPresent() && text.text().regionMatches(span.get().start(), chunkText, 0, chunkText.length())
                && span.get().end() - span.get().start() == chunkText.length()) {
            return at(text, span.get().start(), span.get().end());
        }
        int found = text.text().indexOf(chunkText);
        if (span.isEmpty() && found < 0) {
            return Span.without(text.version(), false, "the chunk's text is not in the document's text (a pre-made chunk)");
        }
        return Span.without(text.version(), true, "the hit comes from another version of the document than its text now holds");
    }

    /**
     * The span of {@code sentence} inside chunk {@code index} (text {@code chunkText}): where the chunk's
     * span holds it, exactly; empty when the sentence is not in the chunk or the chunk has no span.
     */
    public static Optional<Span> ofSentence(DocumentText text, int index, String chunkText, String sentence) {
        Span chunk = ofChunk(text, index, chunkText);
        int within = chunkText.indexOf(sentence);
        if (chunk.start() == null || within < 0 || sentence.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(at(text, chunk.start() + within, chunk.start() + within + sentence.length()));
    }

    /** The chunk's sentences as {@code [start, end)} ranges of the chunk text, trimmed. */
    public static List<int[]> sentences(String chunkText) {
        List<int[]> ranges = new ArrayList<>();
        Matcher matcher = SENTENCE.matcher(chunkText);
        while (matcher.find()) {
            int start = matcher.start();
            int end = matcher.end();
            while (start < end && Character.isWhitespace(chunkText.charAt(start))) {
                start++;
            }
            while (end > start && Character.isWhitespace(chunkText.charAt(end - 1))) {
                end--;
            }
            if (end > start && WORD.matcher(chunkText.substring(start, end)).find()) {
                ranges.add(new int[] {start, end});
            }
        }
        return ranges;
    }

    /**
     * The sentence of {@code chunkText} that best supports {@code claim}, by token alignment: the share
     * of the claim's content words the sentence holds (ties: the shorter sentence). Empty when no
     * sentence shares a content word.
     */
    public static Optional<Scored> bestSupport(String chunkText, String claim) {
        Set<String> claimWords = words(claim);
        if (claimWords.isEmpty()) {
            return Optional.empty();
        }
        return sentences(chunkText).stream()
                .map(range -> {
                    Set<String> sentenceWords = words(chunkText.substring(range[0], range[1]));
                    long shared = claimWords.stream().filter(sentenceWords::contains).count();
                    return new Scored(range[0], range[1], (double) shared / claimWords.size());
                })
                .filter(scored -> scored.support() > 0)
                .max(Comparator.comparingDouble(Scored::support).thenComparing(scored -> -(scored.end() - scored.start())));
    }

    /** A sentence's range in its chunk and how much of a claim it supports. */
    public record Scored(int start, int end, double support) {
    }

    static Set<String> words(String text) {
        Set<String> words = new HashSet<>();
        Matcher matcher = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (matcher.find()) {
            if (!STOP.contains(matcher.group())) {
                words.add(matcher.group());
            }
        }
        return words;
    }

    private static Span at(DocumentText text, int start, int end) {
        return Span.at(start, end, text.text(), text.pageAt(start), text.headingPathAt(start), text.version());
    }
}
