package dev.openrag.query.ask;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.openrag.knowledge.browse.DocumentText;
import dev.openrag.query.cite.Span;
import dev.openrag.query.cite.Spans;
import dev.openrag.query.search.SearchResponse;

/**
 * The spans an answer cites in each source: for an extractive answer the exact sentence it quotes; for
 * a generative one, for each claim ending in [n], the sentence of source n that best supports it by
 * token alignment, with its {@code support}. A source whose document text is not kept gets none; one
 * whose text changed gets a span without offsets saying so.
 */
final class SourceSpans {

    /** A generative answer's sentences, each with the citations at its end (or anywhere in it). */
    private static final Pattern CLAIM = Pattern.compile("[^.!?\\n]*?(?:\\[\\d+\\][^.!?\\n]*?)*(?:[.!?]+|\\n|$)");
    private static final Pattern CITATION = Pattern.compile("\\[(\\d+)\\]");

    private SourceSpans() {
    }

    /** Spans per source (index as in {@code sources}; null: none cited there). */
    static List<List<Span>> extractive(List<ExtractiveAnswer.Quote> quotes, List<SearchResponse.Result> sources,
                                       Map<String, DocumentText> texts) {
        List<List<Span>> spans = new ArrayList<>(java.util.Collections.nCopies(sources.size(), (List<Span>) null));
        for (ExtractiveAnswer.Quote quote : quotes) {
            SearchResponse.Result source = sources.get(quote.source());
            DocumentText text = textOf(texts, source);
            if (text != null) {
                spans.set(quote.source(), List.of(sentence(text, source, quote.start(), quote.end(), null)));
            }
        }
        return spans;
    }

    static List<List<Span>> generative(String answer, List<SearchResponse.Result> sources, Map<String, DocumentText> texts) {
        List<Map<Integer, Span>> found = new ArrayList<>();
        sources.forEach(source -> found.add(new LinkedHashMap<>()));
        Matcher claims = CLAIM.matcher(answer);
        String previous = "";
        while (claims.find()) {
            String claim = claims.group();
            Matcher citations = CITATION.matcher(claim);
            String own = CITATION.matcher(claim).replaceAll(" ");
            // "… sun. [1]": a citation standing after the full stop cites the sentence before it
            String words = own.chars().anyMatch(Character::isLetterOrDigit) ? own : previous;
            previous = words;
            while (citations.find()) {
                int n = Integer.parseInt(citations.group(1));
                if (n < 1 || n > sources.size()) {
                    continue; // a number the model made up
                }
                SearchResponse.Result source = sources.get(n - 1);
                DocumentText text = textOf(texts, source);
                if (text == null) {
                    continue;
                }
                Spans.bestSupport(source.text(), words).ifPresent(best -> found.get(n - 1).merge(best.start(),
                        sentence(text, source, best.start(), best.end(), best.support()),
                        (kept, other) -> kept.support() >= other.support() ? kept : other));
            }
        }
        List<List<Span>> spans = new ArrayList<>();
        for (Map<Integer, Span> bySentence : found) {
            spans.add(bySentence.isEmpty() ? null : bySentence.values().stream()
                    .sorted(Comparator.comparing(Span::support, Comparator.nullsLast(Comparator.reverseOrder()))).toList());
        }
        return spans;
    }

    /**
     * The text of the source's document: by collection and id where texts of several collections
     * were read (the same id may live in two), else by id; never another collection's.
     */
    static DocumentText textOf(Map<String, DocumentText> texts, SearchResponse.Result source) {
        DocumentText text = source.collection() == null ? null : texts.get(source.collection() + "/" + source.documentId());
        if (text == null) {
            text = texts.get(source.documentId());
        }
        return text == null || source.collection() == null || text.collection() == null
                || source.collection().equals(text.collection()) ? text : null;
    }

    /** The span of {@code [start, end)} of the source's chunk text, or the chunk's own span saying why there is none. */
    private static Span sentence(DocumentText text, SearchResponse.Result source, int start, int end, Double support) {
        Span chunk = Spans.ofChunk(text, source.chunkIndex(), source.text());
        if (chunk.start() == null) {
            return chunk;
        }
        Span span = Span.at(chunk.start() + start, chunk.start() + end, text.text(), text.pageAt(chunk.start() + start),
                text.headingPathAt(chunk.start() + start), text.version());
        return support == null ? span : span.withSupport(support);
    }
}
