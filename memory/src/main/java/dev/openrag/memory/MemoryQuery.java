package dev.openrag.memory;

import java.util.Set;

import dev.openrag.knowledge.filter.DocumentFilter;

/**
 * A memory search: the query's text (BM25 over memory text; null: vectors only) and vector, how
 * many results, and optional filters: {@code speaker}, and when it happened ({@code after} and
 * {@code before}, epoch ms, on {@code occurredAt}). With a conversation, its memories and messages
 * rank higher. {@code mode}: {@link #HYBRID} (both lists fused), {@link #VECTOR} or {@link #BM25}.
 * {@code period}: the time the question is about, from its words ({@link TimeExpressions}); what
 * happened then ranks higher (a list of its own in the fusion), nothing is filtered out by it.
 * {@code asOf}: what was true at that time (happened by then, not yet superseded); null: what is
 * true now (superseded and corrected memories left out). {@code entityLinks}: whether a hybrid
 * search adds the memories linked to the question's names and to its best hits through the
 * entities they mention (a list of its own in the fusion; off unless asked: it did not lift LoCoMo
 * recall on the tune conversations, docs/benchmarks.md). {@code secondVector}: the question embedded by
 * the second model ({@link dev.openrag.knowledge.embedding.SecondEmbedder}; null: none), whose
 * nearest memories a hybrid search fuses as a list of its own. {@code recency}: newer memories rank
 * higher (null: off, the default). {@code filter}: on tags and caller metadata ({@link MemoryFilter};
 * null: none), applied inside every list of the search. {@code ranking}: this search's speaker focus and episode lift
 * in place of the store's settings (null: the store's; a benchmark's way to turn on what ordinary use leaves off).
 */
public record MemoryQuery(String scope, String text, float[] vector, int k, String conversationId, double conversationBoost,
                          boolean includeForgotten, String speaker, Long after, Long before, long now, String mode,
                          TimeExpressions.Window period, Long asOf, boolean entityLinks, float[] secondVector, Recency recency,
                          DocumentFilter filter, Ranking ranking) {

    /**
     * A search's own speaker focus and episode lift ({@code openrag.memory.other-speaker-weight} and {@code episode-weight}
     * for one search): what another speaker's memory keeps of its score when the question is about one speaker (1: no
     * focus), and what a memory's episode lends it (0: none).
     */
    public record Ranking(double otherSpeakerWeight, double episodeWeight) {

        public Ranking {
            if (!(otherSpeakerWeight >= 0 && otherSpeakerWeight <= 1)) {
                throw new IllegalArgumentException("the other-speaker weight must be between 0 and 1, not " + otherSpeakerWeight);
            }
            if (!(episodeWeight >= 0 && episodeWeight <= 10)) {
                throw new IllegalArgumentException("the episode weight must be between 0 and 10, not " + episodeWeight);
            }
        }
    }

    public MemoryQuery(String scope, String text, float[] vector, int k, String conversationId, double conversationBoost,
                       boolean includeForgotten, String speaker, Long after, Long before, long now, String mode,
                       TimeExpressions.Window period, Long asOf, boolean entityLinks, float[] secondVector, Recency recency,
                       DocumentFilter filter) {
        this(scope, text, vector, k, conversationId, conversationBoost, includeForgotten, speaker, after, before, now, mode, period,
                asOf, entityLinks, secondVector, recency, filter, null);
    }

    /** This search, ranked with {@code ranking} in place of the store's settings (null: the store's). */
    public MemoryQuery withRanking(Ranking ranking) {
        return new MemoryQuery(scope, text, vector, k, conversationId, conversationBoost, includeForgotten, speaker, after, before, now,
                mode, period, asOf, entityLinks, secondVector, recency, filter, ranking);
    }

    public MemoryQuery(String scope, String text, float[] vector, int k, String conversationId, double conversationBoost,
                       boolean includeForgotten, String speaker, Long after, Long before, long now, String mode,
                       TimeExpressions.Window period, Long asOf, boolean entityLinks, float[] secondVector, Recency recency) {
        this(scope, text, vector, k, conversationId, conversationBoost, includeForgotten, speaker, after, before, now, mode, period,
                asOf, entityLinks, secondVector, recency, null);
    }

    /** This search, keeping only the memories that pass {@code filter} (null: none). */
    public MemoryQuery withFilter(DocumentFilter filter) {
        return new MemoryQuery(scope, text, vector, k, conversationId, conversationBoost, includeForgotten, speaker, after, before, now,
                mode, period, asOf, entityLinks, secondVector, recency, filter, ranking);
    }

    /**
     * Recency as a signal, after fusion: each result's score, over the best, gains
     * {@link #WEIGHT} × 0.5^(age / half-life), its age counted from {@code from} back to when it
     * happened (a memory that happened after {@code from} counts as new). Nothing is filtered out.
     */
    public record Recency(double halfLifeMs, long from) {

        /** What a memory that happened at {@code from} gains: as much as a third of the best hit's score, fixed, not fitted. */
        public static final double WEIGHT = 0.3;

        public Recency {
            if (!(halfLifeMs > 0)) {
                throw new IllegalArgumentException("the recency half-life must be positive, got " + halfLifeMs);
            }
        }

        /** The lift of a memory that happened at {@code happened} (epoch ms). */
        public double lift(long happened) {
            double age = Math.max(0, from - happened);
            return WEIGHT * Math.pow(0.5, age / halfLifeMs);
        }
    }

    public MemoryQuery(String scope, String text, float[] vector, int k, String conversationId, double conversationBoost,
                       boolean includeForgotten, String speaker, Long after, Long before, long now, String mode,
                       TimeExpressions.Window period, Long asOf, boolean entityLinks, float[] secondVector) {
        this(scope, text, vector, k, conversationId, conversationBoost, includeForgotten, speaker, after, before, now, mode, period,
                asOf, entityLinks, secondVector, null);
    }

    public MemoryQuery(String scope, String text, float[] vector, int k, String conversationId, double conversationBoost,
                       boolean includeForgotten, String speaker, Long after, Long before, long now, String mode,
                       TimeExpressions.Window period, Long asOf, boolean entityLinks) {
        this(scope, text, vector, k, conversationId, conversationBoost, includeForgotten, speaker, after, before, now, mode, period,
                asOf, entityLinks, null);
    }

    /** This search with the query's vectors (the second: null for none). */
    public MemoryQuery withVectors(float[] vector, float[] secondVector) {
        return new MemoryQuery(scope, text, vector, k, conversationId, conversationBoost, includeForgotten, speaker, after, before, now,
                mode, period, asOf, entityLinks, secondVector, recency, filter, ranking);
    }

    public static final String HYBRID = "hybrid";
    public static final String VECTOR = "vector";
    public static final String BM25 = "bm25";
    public static final Set<String> MODES = Set.of(HYBRID, VECTOR, BM25);

    public MemoryQuery(String scope, String text, float[] vector, int k, String conversationId, double conversationBoost,
                       boolean includeForgotten, String speaker, Long after, Long before, long now) {
        this(scope, text, vector, k, conversationId, conversationBoost, includeForgotten, speaker, after, before, now, HYBRID, null, null,
                false);
    }

    /** A vector-only query without filters, as before hybrid search. */
    public static MemoryQuery byVector(String scope, float[] vector, int k, String conversationId, double conversationBoost,
                                       boolean includeForgotten, long now) {
        return new MemoryQuery(scope, null, vector, k, conversationId, conversationBoost, includeForgotten, null, null, null, now);
    }
}
