package dev.openrag.query.cite;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.openrag.knowledge.browse.ChunkPlace;
import dev.openrag.knowledge.browse.DocumentText;
import dev.openrag.knowledge.port.ChunkLookup;
import dev.openrag.knowledge.port.DocumentTexts;

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

    /** Why a hit has no span: the offsets stored for its chunk lie outside its document's text. */
    public static final String OUT_OF_RANGE = "the offsets stored for this chunk lie outside its document's text";
    private static final String STALE = "the hit comes from another version of the document than its text now holds";
    private static final String PREMADE = "the chunk's text is not in the document's text (a pre-made chunk)";

    private Spans() {
    }

    /** A hit to cite: its chunk, where it lies in its document, and its text. */
    public record Hit(String chunkId, String documentId, int index, String text) {
    }

    /**
     * The citations of a collection's hits, by chunk id. Each is cut from its chunk's stored place,
     * without reading the document's text, so that its cost does not grow with the document: a chunk
     * that lies in the text by its offsets, and one that lies elsewhere (a pre-made chunk the text does
     * not hold) alike. Where the places are every chunk's of the version, a hit without one is of
     * another version. Only a hit whose document's text has no places of its version (written before
     * places were), or not every chunk's and none for the hit's chunk, is cut from the whole text, as
     * {@link #ofChunk(DocumentText, int, String)} does. {@code found}: the hits' places ({@link #places}).
     */
    public static Map<String, Citation> cite(DocumentTexts texts, String collection, List<Hit> hits, DocumentTexts.Places found) {
        Map<String, Citation> citations = new HashMap<>();
        List<Hit> fromText = new ArrayList<>();
        Citation noText = Citation.withoutText(Span.without(null, false, NO_TEXT));
        for (Hit hit : hits) {
            DocumentTexts.Kept kept = found.documents().get(hit.documentId());
            ChunkPlace place = found.places().get(new ChunkLookup.ChunkKey(hit.documentId(), hit.index()));
            if (kept == null) {
                citations.put(hit.chunkId(), noText);
            } else if (place != null) {
                Span span = ofChunk(place, hit.text());
                citations.put(hit.chunkId(), new Citation(span, span.start() == null ? null : place, true));
            } else if (kept.complete()) {
                citations.put(hit.chunkId(), new Citation(Span.without(kept.version(), true, STALE), null, true));
            } else {
                fromText.add(hit);
            }
        }
        if (!fromText.isEmpty()) {
            Map<String, DocumentText> whole = texts.getAll(collection, fromText.stream().map(Hit::documentId).distinct().toList());
            for (Hit hit : fromText) {
                DocumentText text = whole.get(hit.documentId());
                Span span = text == null ? null : ofChunk(text, hit.index(), hit.text());
                citations.put(hit.chunkId(), span == null ? noText
                        : new Citation(span, span.start() == null ? null : text.place(hit.index()).orElseThrow(), true));
            }
        }
        return citations;
    }

    /** The hits' places, with their documents' metadata, in one read ({@link DocumentTexts#places}). */
    public static DocumentTexts.Places places(DocumentTexts texts, String collection, List<Hit> hits) {
        return texts.places(collection, hits.stream().map(hit -> new ChunkLookup.ChunkKey(hit.documentId(), hit.index())).distinct().toList());
    }

    /** The span of a chunk whose text is {@code chunkText} at its stored place (the text itself is not needed). */
    public static Span ofChunk(ChunkPlace place, String chunkText) {
        if (place.isElsewhere()) {
            return place.holds(chunkText) ? Span.without(place.version(), false, PREMADE) : Span.without(place.version(), true, STALE);
        }
        if (!place.inRange()) {
            return Span.without(place.version(), false, OUT_OF_RANGE);
        }
        return place.holds(chunkText) ? within(place, chunkText, 0, chunkText.length(), null) : Span.without(place.version(), true, STALE);
    }

    /** The span of chunk {@code index} whose text is {@code chunkText}, in {@code text} (read whole). */
    public static Span ofChunk(DocumentText text, int index, String chunkText) {
        Optional<DocumentText.ChunkSpan> span = text.chunk(index);
        if (span.isPresent() && (span.get().start() < 0 || span.get().start() > span.get().end() || span.get().end() > text.text().length())) {
            return Span.without(text.version(), false, OUT_OF_RANGE);
        }
        if (span.isPresent() && text.text().regionMatches(span.get().start(), chunkText, 0, chunkText.length())
                && span.get().end() - span.get().start() == chunkText.length()) {
            return ofChunk(text.place(index).orElseThrow(), chunkText);
        }
        int found = text.text().indexOf(chunkText);
        if (span.isEmpty() && found < 0) {
            return Span.without(text.version(), false, PREMADE);
        }
        return Span.without(text.version(), true, STALE);
    }

    /**
     * The span of {@code [start, end)} of a chunk's text {@code chunkText} that lies at {@code place}
     * (which {@link ChunkPlace#holds} it): the document's text there is the chunk's.
     */
    public static Span within(ChunkPlace place, String chunkText, int start, int end, Double support) {
        int at = place.start() + start;
        Span span = Span.at(at, place.start() + end, chunkText.substring(start, end), place.pageAt(at), place.headingPathAt(at),
                place.version());
        return support == null ? span : span.withSupport(support);
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
}
