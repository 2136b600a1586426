package dev.openrag.memory;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import dev.openrag.knowledge.filter.DocumentFilter;

import dev.openrag.knowledge.port.Correction;
import dev.openrag.knowledge.port.EngineUnavailableException;
import dev.openrag.knowledge.runtime.ReadDeadline;

/**
 * A {@link MemoryStore} (Neo4j's) whose reads keep the {@link ReadDeadline}: memory search, lists
 * and lookups over REST and MCP answer within the budget with the engine named when Neo4j is frozen.
 * Writes go through as they are: a write cut off at a deadline might still land, and the caller
 * would then retry a write that happened.
 */
public final class DeadlineMemoryStore implements MemoryStore {

    private static final String ENGINE = EngineUnavailableException.NEO4J;

    private final MemoryStore store;
    private final ReadDeadline deadline;

    public DeadlineMemoryStore(MemoryStore store, ReadDeadline deadline) {
        this.store = store;
        this.deadline = deadline;
    }

    /** The store behind the deadline (for its own metrics). */
    public MemoryStore store() {
        return store;
    }

    @Override
    public Optional<Memory> get(String id) {
        return deadline.call(ENGINE, () -> store.get(id));
    }

    @Override
    public List<Memory> list(String scope, Boolean pinned, String tag, int offset, int limit, long now) {
        return deadline.call(ENGINE, () -> store.list(scope, pinned, tag, offset, limit, now));
    }

    @Override
    public List<Memory> list(String scope, Boolean pinned, String tag, DocumentFilter filter, int offset, int limit, long now) {
        return deadline.call(ENGINE, () -> store.list(scope, pinned, tag, filter, offset, limit, now));
    }

    @Override
    public Map<String, MemoryEmbeddings.Vectors> vectors(String scope, Collection<String> ids) {
        return deadline.call(ENGINE, () -> store.vectors(scope, ids));
    }

    @Override
    public Set<String> speakers(String scope) {
        return deadline.call(ENGINE, () -> store.speakers(scope));
    }

    @Override
    public List<MemoryHit> search(MemoryQuery query) {
        return deadline.call(ENGINE, () -> store.search(query));
    }

    @Override
    public List<MemoryHit> search(MemoryQuery query, CompletableFuture<MemoryEmbeddings.Vectors> vectors) {
        return deadline.callAfter(vectors, ENGINE, () -> store.search(query, vectors)); // the query's embedding is not the engine's time
    }

    @Override
    public Optional<Conversation> conversation(String id) {
        return deadline.call(ENGINE, () -> store.conversation(id));
    }

    @Override
    public List<MemoryHit> relatedPinned(Collection<String> scopes, float[] query, double minSimilarity, Collection<String> subjects,
                                         int limit, long now) {
        return deadline.call(ENGINE, () -> store.relatedPinned(scopes, query, minSimilarity, subjects, limit, now));
    }

    // writes: as they are

    @Override
    public Memory add(Memory memory, float[] embedding, float[] secondEmbedding) {
        return store.add(memory, embedding, secondEmbedding);
    }

    @Override
    public Memory update(String id, String text, float[] embedding, float[] secondEmbedding, List<String> tags, long now) {
        return store.update(id, text, embedding, secondEmbedding, tags, now);
    }

    @Override
    public Memory update(String id, String text, float[] embedding, float[] secondEmbedding, List<String> tags,
                         Map<String, Object> metadata, long now) {
        return store.update(id, text, embedding, secondEmbedding, tags, metadata, now);
    }

    @Override
    public void link(String fromId, String toId, String type) {
        store.link(fromId, toId, type);
    }

    @Override
    public boolean unlink(String fromId, String toId, String type) {
        return store.unlink(fromId, toId, type);
    }

    @Override
    public void setPinned(String id, boolean pinned, long now) {
        store.setPinned(id, pinned, now);
    }

    @Override
    public void setForgotten(String id, Long forgottenAt) {
        store.setForgotten(id, forgottenAt);
    }

    @Override
    public boolean delete(String id) {
        return store.delete(id);
    }

    @Override
    public List<String> addAll(List<Memory> memories, List<String> contexts, List<float[]> embeddings, List<float[]> secondEmbeddings) {
        return store.addAll(memories, contexts, embeddings, secondEmbeddings);
    }

    @Override
    public int sweep(long now, long forgottenBefore) {
        return store.sweep(now, forgottenBefore);
    }

    @Override
    public Correction correct(Correction correction, float[] embedding) {
        return store.correct(correction, embedding);
    }

    @Override
    public Conversation createConversation(String scope, String title, long now) {
        return store.createConversation(scope, title, now);
    }

    @Override
    public Message addMessage(String conversationId, String role, String content, float[] embedding, long now) {
        return store.addMessage(conversationId, role, content, embedding, now);
    }
}
