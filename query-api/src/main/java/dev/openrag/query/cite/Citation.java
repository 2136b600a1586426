package dev.openrag.query.cite;

import dev.openrag.knowledge.browse.ChunkPlace;

/**
 * A hit's citation as its search cut it: the hit's {@code span}, the {@code place} it was cut from where
 * it has offsets (an answer cuts its quoted sentences' spans from it, reading nothing again), and whether
 * the hit's document has a text kept at all ({@code textKept} false: none is, or the texts did not answer).
 */
public record Citation(Span span, ChunkPlace place, boolean textKept) {

    /** A hit whose document's text is not there to cite: {@code span} says why. */
    public static Citation withoutText(Span span) {
        return new Citation(span, null, false);
    }
}
