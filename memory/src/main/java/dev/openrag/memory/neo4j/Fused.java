package dev.openrag.memory.neo4j;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.openrag.memory.MemoryHit;

/**
 * A candidate after fusion: its fused score, its 1-based rank in each list that held it, and what
 * the signals after fusion did to its score ({@link MemoryHit#adjusted()}; null when none ran).
 */
record Fused(Candidate candidate, double score, Map<String, Integer> ranks, Map<String, Double> adjusted) {

    /** Best first, ties by key, as fusion orders them. */
    static final Comparator<Fused> BEST_FIRST = Comparator.comparingDouble(Fused::score).reversed()
            .thenComparing(hit -> hit.candidate().key());

    Fused(Candidate candidate, double score, Map<String, Integer> ranks) {
        this(candidate, score, ranks, null);
    }

    /** This hit with a new score and one more entry in {@code adjusted}. */
    Fused adjusted(double newScore, String step, double value) {
        Map<String, Double> steps = new LinkedHashMap<>(adjusted == null ? Map.of() : adjusted);
        steps.put(step, value);
        return new Fused(candidate, newScore, ranks, steps);
    }

    /** When this memory happened ({@code said}'s), null for a message or when unknown. */
    Long happened(Said said) {
        return candidate.message() == null ? said.happenedAt().apply(candidate.id()) : null;
    }
}
