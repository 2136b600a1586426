package dev.openrag.query.ask;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.openrag.knowledge.port.Correction;
import dev.openrag.query.cite.Span;
import dev.openrag.query.search.SearchResponse;
import dev.openrag.schemas.TokenUsage;

/**
 * {@code POST /api/ask} answer. {@code mode} is "generative" (written by {@code model} from the
 * numbered sources, cited as [n]) or "extractive" (the best passages, when no LLM is configured or
 * it failed: {@code fallbackReason} says why). {@code usage}: the tokens the model reported for
 * this answer (absent for extractive answers). {@code unknownFilterKeys} as in search.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AskResponse(String answer, String mode, String model, List<Source> sources,
                          List<SearchResponse.MemoryNote> memories, List<Correction> corrections,
                          String fallbackReason, List<String> degraded, TokenUsage usage, long tookMs,
                          List<String> unknownFilterKeys) {

    /**
     * A numbered source the answer cites as [n]; {@code spans}: the exact sentences of its document the
     * answer rests on (null: none cited, or the document's text is not kept); {@code collection} it is from.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Source(int n, String chunkId, String documentId, int chunkIndex, String title, String sourceUri, String text,
                         List<Span> spans, String collection) {
    }
}
