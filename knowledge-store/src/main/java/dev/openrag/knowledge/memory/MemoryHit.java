package dev.openrag.knowledge.memory;

/**
 * One result of a memory search: a memory, or a message of the conversation the search was
 * about ({@code kind} "memory" or "message"); {@code score} is the cosine similarity in Neo4j's
 * [0, 1] scale plus any conversation boost.
 */
public record MemoryHit(String kind, double score, Memory memory, Message message) {

    public String id() {
        return memory != null ? memory.id() : message.id();
    }
}
