package dev.openrag.memory;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;


/**
 * The time a memory search's query names, as it was read ({@link TimeExpressions}): ISO-8601 ends
 * ({@code from} inclusive, {@code to} exclusive; null: open), and for a time before or after an event
 * ("before the wedding") the event's words and {@code datedBy}, the memory that dated it. Searches
 * answer with it, so a caller sees why the memories of a period ranked higher.
 */
public record MemoryPeriod(@JsonIgnore TimeExpressions.Window window, String from, String to,
                           @JsonInclude(JsonInclude.Include.NON_NULL) String event,
                           @JsonInclude(JsonInclude.Include.NON_NULL) String datedBy) {

    /** The best hits for an event's words that may date it: the first that holds some of its words does. */
    static final int EVENT_CANDIDATES = 3;

    static MemoryPeriod of(TimeExpressions.Window window, String event, String datedBy) {
        return new MemoryPeriod(window, window.openBefore() ? null : Instant.ofEpochMilli(window.from()).toString(),
                window.openAfter() ? null : Instant.ofEpochMilli(window.to()).toString(), event, datedBy);
    }

    /**
     * The period {@code query} names, counted from {@code reference} (epoch ms), or null; {@code now}
     * is the search's time (for what has expired). An event is dated by the scope's best hybrid hit
     * for its words (first model only; as of {@code asOf}) among those that hold some of them: a
     * memory only near in meaning would date "the wedding" in a scope that never mentions one.
     */
    public static MemoryPeriod read(String query, String scope, long reference, Long asOf, long now, MemoryStore store,
                                    MemoryEmbeddings embeddings) {
        var window = TimeExpressions.window(query, reference);
        if (window.isPresent()) {
            return of(window.get(), null, null);
        }
        var anchor = TimeExpressions.anchor(query).orElse(null);
        if (anchor == null) {
            return null;
        }
        // the event's words are embedded while the store reads what needs no vector
        return store.search(new MemoryQuery(scope, anchor.event(), null, EVENT_CANDIDATES, null, 0, false, null, null, null,
                        now, MemoryQuery.HYBRID, null, asOf, false, null), embeddings.queryLater(anchor.event(), false))
                .stream()
                .filter(hit -> hit.memory() != null && hit.ranks() != null
                        && (hit.ranks().containsKey("bm25") || hit.ranks().containsKey("context")))
                .map(MemoryHit::memory)
                .findFirst()
                .map(event -> of(anchor.around(event.occurredAt() != null ? event.occurredAt() : event.createdAt()), anchor.event(),
                        event.id()))
                .orElse(null);
    }
}
