package dev.openrag.memory;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import dev.openrag.knowledge.filter.DocumentFilter;

import dev.openrag.knowledge.port.Correction;


/**
 * Agents' long-term memory (ARCHITECTURE §4): memories and conversations, with their embeddings
 * (corrections of knowledge are knowledge-store's {@link dev.openrag.knowledge.port.CorrectionStore}). The store keeps what it is given; callers enforce scopes, validation, TTL
 * and retention rules ({@code now} is passed in so that expiry is decided in one place).
 */
public interface MemoryStore {

    /** Stores a new memory; {@code about} names entities (by name or uid) or documents (by id or uid) to link. */
    default Memory add(Memory memory, float[] embedding) {
        return add(memory, embedding, null);
    }

    /**
     * {@link #add(Memory, float[])} with the memory's vector from the second embedding model
     * ({@link dev.openrag.knowledge.embedding.SecondEmbedder}; null: none), which memory search fuses as a list of its own.
     */
    Memory add(Memory memory, float[] embedding, float[] secondEmbedding);

    /** The memory as stored (forgotten or expired ones too: callers decide what to show). */
    Optional<Memory> get(String id);

    List<Memory> list(String scope, Boolean pinned, String tag, int offset, int limit, long now);

    /** {@link #list(String, Boolean, String, int, int, long)} of the memories passing {@code filter} ({@link MemoryFilter}; null: all). */
    List<Memory> list(String scope, Boolean pinned, String tag, DocumentFilter filter, int offset, int limit, long now);

    /** Replaces the text (and its embedding) and/or the tags; null leaves a field as it is. */
    default Memory update(String id, String text, float[] embedding, List<String> tags, long now) {
        return update(id, text, embedding, null, tags, now);
    }

    /** {@link #update(String, String, float[], List, long)}; a new text replaces the second vector too (null: none). */
    Memory update(String id, String text, float[] embedding, float[] secondEmbedding, List<String> tags, long now);

    /**
     * {@link #update(String, String, float[], float[], List, long)} that also replaces the caller's metadata (normalised,
     * {@link MemoryFilter#metadata}; null: left as it is, empty: removed).
     */
    Memory update(String id, String text, float[] embedding, float[] secondEmbedding, List<String> tags, Map<String, Object> metadata,
                  long now);

    /** Links two memories; a {@value Memory#SUPERSEDES} link also ends the older one's validity and takes the place of a suggested one. */
    void link(String fromId, String toId, String type);

    /** Removes the link of {@code type} between two memories (dismissing a suggested supersession, say); whether there was one. */
    boolean unlink(String fromId, String toId, String type);

    /**
     * Both embedding models' vectors of these memories of {@code scope}, by id, as stored ({@link #add(Memory, float[], float[])};
     * the second null where a memory has none); a memory not found is absent. A store that keeps none answers none.
     */
    default Map<String, MemoryEmbeddings.Vectors> vectors(String scope, Collection<String> ids) {
        return Map.of();
    }

    /** The names of the speakers of a scope's memories (a few seconds stale at most). */
    Set<String> speakers(String scope);

    void setPinned(String id, boolean pinned, long now);

    /** Soft-forgets ({@code forgottenAt} set) or restores ({@code null}). */
    void setForgotten(String id, Long forgottenAt);

    boolean delete(String id);

    /**
     * Nearest memories of a scope to a query vector; with a conversation, that conversation's
     * memories and messages get {@code conversationBoost} added to their score.
     */
    default List<MemoryHit> search(String scope, float[] query, int k, String conversationId, double conversationBoost,
                                   boolean includeForgotten, long now) {
        return search(MemoryQuery.byVector(scope, query, k, conversationId, conversationBoost, includeForgotten, now));
    }

    /**
     * A memory search; with query text, hybrid: the nearest memories by vector and the best by BM25
     * over their text, fused by reciprocal rank.
     */
    List<MemoryHit> search(MemoryQuery query);

    /**
     * {@link #search(MemoryQuery)} while the query's vectors are still being computed ({@code query}'s own are
     * ignored): a store may read meanwhile what needs none, as where the scope stands and its best memories by words.
     */
    default List<MemoryHit> search(MemoryQuery query, CompletableFuture<MemoryEmbeddings.Vectors> vectors) {
        MemoryEmbeddings.Vectors embedded = vectors.join();
        return search(query.withVectors(embedded.first(), embedded.second()));
    }

    /**
     * Adds memories in one go; a memory whose id already exists in the scope is left as it is
     * (a batch can be sent again). Returns the ids added.
     */
    default List<String> addAll(List<Memory> memories, List<float[]> embeddings) {
        return addAll(memories, embeddings, null);
    }

    /** {@link #addAll(List, List)} with the second model's vectors, in the same order (null: none). */
    default List<String> addAll(List<Memory> memories, List<float[]> embeddings, List<float[]> secondEmbeddings) {
        return addAll(memories, null, embeddings, secondEmbeddings);
    }

    /**
     * {@link #addAll(List, List, List)} with each memory's context (e.g. the turn before it; null: none),
     * kept beside the memory for word search and never shown.
     */
    List<String> addAll(List<Memory> memories, List<String> contexts, List<float[]> embeddings, List<float[]> secondEmbeddings);

    /** Hard-deletes expired memories and those forgotten before {@code forgottenBefore}; returns how many. */
    int sweep(long now, long forgottenBefore);

    /**
     * Stores a correction that names a memory ({@code correction.memoryId()}): the memory is no longer true from the
     * correction's time on, as a superseded one. Corrections of chunks and queries are knowledge-store's
     * ({@link dev.openrag.knowledge.port.CorrectionStore}), which lists this one too.
     */
    Correction correct(Correction correction, float[] embedding);

    Conversation createConversation(String scope, String title, long now);

    Optional<Conversation> conversation(String id);

    Message addMessage(String conversationId, String role, String content, float[] embedding, long now);

    /**
     * Pinned memories related to a search: similar to the query (at least {@code minSimilarity}), or about one of
     * {@code subjects}, the {@code uid}s of documents and entities (what the results are about, as knowledge-store's
     * {@link dev.openrag.knowledge.port.ChunkSubjects} tells them: memory never reads chunks). {@code scopes} null
     * means every scope.
     */
    List<MemoryHit> relatedPinned(Collection<String> scopes, float[] query, double minSimilarity,
                                  Collection<String> subjects, int limit, long now);
}
