package dev.openrag.query.cite;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Where a hit or a cited sentence lies in its document's text ({@code GET /api/documents/{id}/text}):
 * {@code [start, end)} in UTF-16 code units, {@code text} exactly the text there, the page it starts
 * on (PDF), the headings above it, and the document {@code version} it points into. Without offsets,
 * {@code reason} says why: the hit comes from a version the text no longer holds ({@code stale}), or
 * its text is not in the document's (a pre-made chunk). {@code support}: how well a sentence backs the
 * claim that cites it (a generative answer's [n]; 0..1).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Span(Integer start, Integer end, String text, Integer page, List<String> headingPath, String version,
                   Boolean stale, String reason, Double support) {

    /** The span {@code [start, end)} whose text is {@code text} (the document's text there). */
    public static Span at(int start, int end, String text, Integer page, List<String> headingPath, String version) {
        return new Span(start, end, text, page, headingPath == null || headingPath.isEmpty() ? null : headingPath,
                version, null, null, null);
    }

    public static Span without(String version, boolean stale, String reason) {
        return new Span(null, null, null, null, null, version, stale ? Boolean.TRUE : null, reason, null);
    }

    public Span withSupport(double score) {
        return new Span(start, end, text, page, headingPath, version, stale, reason, Math.round(score * 1000) / 1000.0);
    }
}
