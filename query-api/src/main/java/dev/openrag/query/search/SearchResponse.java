package dev.openrag.query.search;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.openrag.knowledge.browse.ApiOperation;
import dev.openrag.knowledge.port.Correction;
import dev.openrag.query.cite.Span;

/**
 * {@code POST /api/search} answer (ARCHITECTURE §5); with explain, {@code timings} gives the
 * milliseconds of each step (embedQuery, vector, bm25, fusion, memories; retrievers run in parallel),
 * {@code cache} whether a step was answered from a cache ({@code {"embedQuery": "hit"|"miss"}}) and
 * {@code skipped} the steps that did no work because they could not change the answer, with why
 * ({@code {"memories": "no pinned memory or correction in the searched scopes"}}).
 * {@code unknownFilterKeys}: the filter's keys that no document of the searched collections has
 * (absent when every key is known or there is no filter; when their lookup was late or failed, absent too, and
 * {@code degraded} names {@code unknownFilterKeys}); {@code collections}: the collections a
 * search of several covered (absent for one).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SearchResponse(List<Result> results, List<MemoryNote> memories, List<Correction> corrections, long tookMs,
                             String mode, List<String> degraded, Map<String, Double> timings, Route route,
                             Map<String, String> cache, Map<String, String> skipped,
                             @Schema(description = "The filter's keys that no document of the searched collections has: "
                                     + "a condition on them holds for no document (not and exists:false for every one)")
                             List<String> unknownFilterKeys,
                             @Schema(description = "The collections searched, when several were")
                             List<String> collections) {

    public SearchResponse(List<Result> results, List<MemoryNote> memories, List<Correction> corrections, long tookMs,
                          String mode, List<String> degraded, Map<String, Double> timings, Route route,
                          Map<String, String> cache, Map<String, String> skipped) {
        this(results, memories, corrections, tookMs, mode, degraded, timings, route, cache, skipped, null, null);
    }

    /** What {@code automatic} chose (with explain): the mode, weights it changed, and why. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Route(String mode, Map<String, Double> weights, String reason) {
    }

    /** A pinned memory related to the query (similar, or about a document or entity of the results). */
    public record MemoryNote(String id, String scope, String text, List<String> tags, double score) {
    }

    /**
     * One hit; {@code ranks} (per retriever, 1-based) always, {@code scores} per retriever with
     * explain, and with explain the {@code feedback} factor its score was multiplied by, if any;
     * in graph mode the OpenAPI {@code operation} the chunk presents, with examples and entities;
     * {@code spans}: where the chunk lies in its document's text (one span, exact, or without offsets
     * and the reason why: another version, a pre-made chunk, no text kept for the document, the texts
     * not answering in time); {@code collection} and the document's {@code metadata} (caller keys and
     * source fields; {} when it has none).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Result(String chunkId, String documentId, int chunkIndex, String title, String sourceUri, String text,
                         String context, double score, Map<String, Integer> ranks, Map<String, Double> scores, Double feedback,
                         ApiOperation operation, List<Span> spans, String collection, Map<String, Object> metadata) {

        public Result(String chunkId, String documentId, int chunkIndex, String title, String sourceUri, String text,
                      String context, double score, Map<String, Integer> ranks, Map<String, Double> scores, Double feedback,
                      ApiOperation operation, List<Span> spans) {
            this(chunkId, documentId, chunkIndex, title, sourceUri, text, context, score, ranks, scores, feedback, operation, spans,
                    null, null);
        }

        Result withFeedback(double factor, boolean explain) {
            return new Result(chunkId, documentId, chunkIndex, title, sourceUri, text, context, score * factor, ranks, scores,
                    explain ? factor : null, operation, spans, collection, metadata);
        }

        Result withOperation(ApiOperation apiOperation) {
            return new Result(chunkId, documentId, chunkIndex, title, sourceUri, text, context, score, ranks, scores, feedback,
                    apiOperation, spans, collection, metadata);
        }

        Result withSpans(List<Span> documentSpans) {
            return new Result(chunkId, documentId, chunkIndex, title, sourceUri, text, context, score, ranks, scores, feedback,
                    operation, documentSpans, collection, metadata);
        }

        /** The hit with the score a fusion across collections gave it. */
        Result withScore(double fusedScore) {
            return new Result(chunkId, documentId, chunkIndex, title, sourceUri, text, context, fusedScore, ranks, scores, feedback,
                    operation, spans, collection, metadata);
        }

        /** The hit naming its collection and carrying its document's metadata (empty: the document has none). */
        Result withMetadata(String hitCollection, Map<String, Object> documentMetadata) {
            return new Result(chunkId, documentId, chunkIndex, title, sourceUri, text, context, score, ranks, scores, feedback,
                    operation, spans, hitCollection, documentMetadata);
        }
    }
}
