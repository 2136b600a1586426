package dev.openrag.query.ask;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.openrag.query.cite.Citation;
import dev.openrag.query.cite.Span;
import dev.openrag.query.cite.Spans;
import dev.openrag.query.search.SearchResponse;

/**
 * The spans an answer cites in each source: for an extractive answer the exact sentence it quotes; for
 * a generative one, for each claim ending in [n], the sentence of source n that best supports it by
 * token alignment, with its {@code support}. A source whose document text is not kept gets none; one
 * whose text changed gets a span without offsets saying so. Cut from the citations its search made
 * ({@link Citation}): no document's text is read again.
 */
final class SourceSpans {

    /** A generative answer's sentences, each with the citations at its end (or anywhere in it). */
    private static final Pattern CLAIM = Pattern.compile("[^.!?\\n]*?(?:\\[\\d+\\][^.!?\\n]*?)*(?:[.!?]+|\\n|$)");
    private static final Pattern CITATION = Pattern.compile("\\[(\\d+)\\]");

    private SourceSpans() {
    }

    /** Spans per source (index as in {@code sources}; null: none cited there). */
    static List<List<Span>> extractive(List<ExtractiveAnswer.Quote> quotes, List<SearchResponse.Result> sources,
                                       Map<String, Citation> cited) {
        List<List<Span>> spans = new ArrayList<>(java.util.Collections.nCopies(sources.size(), (List<Span>) null));
        for (ExtractiveAnswer.Quote quote : quotes) {
            SearchResponse.Result source = sources.get(quote.source());
            Citation citation = cited.get(source.chunkId());
            if (citation != null && citation.textKept()) {
                spans.set(quote.source(), List.of(sentence(citation, source, quote.start(), quote.end(), null)));
            }
        }
        return spans;
    }

    static List<List<Span>> generative(String answer, List<SearchResponse.Result> sources, Map<String, Citation> cited) {
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
                Citation citation = cited.get(source.chunkId());
                if (citation == null || !citation.textKept()) {
                    continue;
                }
                Spans.bestSupport(source.text(), words).ifPresent(best -> found.get(n - 1).merge(best.start(),
                        sentence(citation, source, best.start(), best.end(), best.support()),
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

    /** The span of {@code [start, end)} of the source's chunk text, or the chunk's own span saying why there is none. */
    private static Span sentence(Citation citation, SearchResponse.Result source, int start, int end, Double support) {
        return citation.place() == null ? citation.span() : Spans.within(citation.place(), source.text(), start, end, support);
    }
}
