package dev.openrag.memory.neo4j;

import java.util.function.Function;

/**
 * Who said each memory and when it happened (its occurredAt, else its creation), for the signals
 * after fusion: the scope's copy knows; without one they are read for the fused memories.
 */
record Said(Function<String, String> speakerOf, Function<String, Long> happenedAt) {
}
