package dev.openrag.knowledge.memory;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One result of a memory search: a memory, or a message of the conversation the search was
 * about ({@code kind} "memory" or "message"). {@code score}: for a vector-only search the cosine
 * similarity in Neo4j's [0, 1] scale plus any conversation boost; for a hybrid search the
 * reciprocal rank fusion of the lists, whose 1-based positions {@code ranks} gives
 * ({@code vector}: by similarity, conversation messages included; {@code bm25}).
 */
public record MemoryHit(String kind, double score, Memory memory, Message message,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Integer> ranks) {

    public MemoryHit(String kind, double score, Memory memory, Message message) {
        this(kind, score, memory, message, null);
    }

    public String id() {
        return memory != null ? memory.id() : message.id();
    }
}
