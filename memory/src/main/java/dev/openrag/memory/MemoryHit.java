package dev.openrag.memory;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One result of a memory search: a memory, or a message of the conversation the search was
 * about ({@code kind} "memory" or "message"). {@code score}: for a vector-only search the cosine
 * similarity in Neo4j's [0, 1] scale plus any conversation boost; for a hybrid search the
 * reciprocal rank fusion of the lists, whose 1-based positions {@code ranks} gives
 * ({@code vector}: by similarity, conversation messages included; {@code bm25}), and {@code adjusted}
 * what the steps after fusion did to its score: {@code otherSpeaker}, the factor it was weighed by as
 * another speaker's memory than the one the question names; {@code episode}, what its day's hits
 * added (the score is then over the best); {@code recency}, what its age left of the recency weight, when
 * the search asked for recency (the score is then over the best); {@code newerWins}, 1 when it was placed
 * right above an older memory that answers the same question, with that memory's score ({@link NewerWins}).
 * Absent when no such step ran.
 */
public record MemoryHit(String kind, double score, Memory memory, Message message,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Integer> ranks,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Double> adjusted) {

    public MemoryHit(String kind, double score, Memory memory, Message message) {
        this(kind, score, memory, message, null, null);
    }

    public String id() {
        return memory != null ? memory.id() : message.id();
    }
}
