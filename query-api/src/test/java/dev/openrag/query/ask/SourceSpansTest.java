package dev.openrag.query.ask;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.browse.DocumentText;
import dev.openrag.query.cite.Citation;
import dev.openrag.query.cite.Span;
import dev.openrag.query.cite.Spans;
import dev.openrag.query.search.SearchResponse;

/** Issue 61: a generative answer's [n] mapped to the sentence of source n that best supports its claim. */
class SourceSpansTest {

    private static final String DOCUMENT = "# Garden\n\nTomatoes need six hours of sun. Basil likes warm nights. Water them daily.";
    private static final String CHUNK = "Tomatoes need six hours of sun. Basil likes warm nights. Water them daily.";

    private static SearchResponse.Result result(String documentId, String text) {
        return new SearchResponse.Result(documentId + "#0", documentId, 0, "Garden", "file:///garden", text, null, 1.0, Map.of(),
                null, null, null, null);
    }

    /** As a search cites the hit: from its chunk's place in the document's text. */
    private static Map<String, Citation> texts() {
        int start = DOCUMENT.indexOf(CHUNK);
        DocumentText text = new DocumentText("c", "garden", "v1", DOCUMENT, List.of(), List.of(),
                List.of(new DocumentText.ChunkSpan(0, start, start + CHUNK.length())));
        return Map.of("garden#0", new Citation(Spans.ofChunk(text, 0, CHUNK), text.place(0).orElseThrow(), true));
    }

    @Test
    void eachCitationPointsAtTheSentenceThatSupportsItsClaimExactly() {
        List<SearchResponse.Result> sources = List.of(result("garden", CHUNK), result("other", "Unrelated text."));
        List<List<Span>> spans = SourceSpans.generative("Basil prefers warm nights [1]. Tomatoes want six hours of sun. [1]",
                sources, texts());
        assertThat(spans.get(0)).extracting(Span::text)
                .containsExactlyInAnyOrder("Basil likes warm nights.", "Tomatoes need six hours of sun.");
        for (Span span : spans.get(0)) {
            assertThat(DOCUMENT.substring(span.start(), span.end())).isEqualTo(span.text());
            assertThat(span.support()).isGreaterThan(0.5);
            assertThat(span.version()).isEqualTo("v1");
        }
        assertThat(spans.get(1)).as("source 2 is not cited, and has no text kept").isNull();
    }

    @Test
    void madeUpNumbersAndClaimsSharingNoWordCiteNothing() {
        List<SearchResponse.Result> sources = List.of(result("garden", CHUNK));
        List<List<Span>> spans = SourceSpans.generative("Elephants fly [1]. Something else [7].", sources, texts());
        assertThat(spans.get(0)).isNull();
    }
}
