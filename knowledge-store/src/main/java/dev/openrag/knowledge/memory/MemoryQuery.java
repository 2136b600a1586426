package dev.openrag.knowledge.memory;

/**
 * A memory search: the query's text (BM25 over memory text; null: vectors only) and vector, how
 * many results, and optional filters: {@code speaker}, and when it happened ({@code after} and
 * {@code before}, epoch ms, on {@code occurredAt}). With a conversation, its memories and messages
 * rank higher.
 */
public record MemoryQuery(String scope, String text, float[] vector, int k, String conversationId, double conversationBoost,
                          boolean includeForgotten, String speaker, Long after, Long before, long now) {

    /** A vector-only query without filters, as before hybrid search. */
    public static MemoryQuery byVector(String scope, float[] vector, int k, String conversationId, double conversationBoost,
                                       boolean includeForgotten, long now) {
        return new MemoryQuery(scope, null, vector, k, conversationId, conversationBoost, includeForgotten, null, null, null, now);
    }
}
