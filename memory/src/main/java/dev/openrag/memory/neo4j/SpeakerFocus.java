package dev.openrag.memory.neo4j;

import java.util.List;

/**
 * Signal "other-speaker weight": a question about one of the scope's speakers (it names only them,
 * or names them first and not together with another) is mostly answered by what that person said,
 * so every memory another known speaker said keeps {@code weight} of its fused score.
 * <p>
 * Needs: memories with a {@code speaker}, and a question naming one of them. Memories without a
 * speaker and conversation messages keep their score; a scope without speakers is left as it is.
 * <p>
 * Measured: in LoCoMo's dev conversations 97% of such questions' evidence is the named person's own
 * turns; 0.5 was chosen among 0.25, 0.5 and 0.75 on the tune conversations (recall@10 0.7913 → 0.7959)
 * and checked on the others (0.7323 → 0.7465); the agent-memory scenarios' several-authors checks pass
 * with it (docs/benchmarks.md).
 */
final class SpeakerFocus {

    static final String NAME = "otherSpeaker";

    private SpeakerFocus() {
    }

    /** {@code fused} with the memories of speakers other than {@code speaker} weighed by {@code weight}, re-sorted. */
    static List<Fused> apply(String speaker, double weight, Said said, List<Fused> fused) {
        return fused.stream()
                .map(hit -> {
                    String by = hit.candidate().message() == null ? said.speakerOf().apply(hit.candidate().id()) : null;
                    return by == null || by.equals(speaker) ? hit : hit.adjusted(hit.score() * weight, NAME, weight);
                })
                .sorted(Fused.BEST_FIRST)
                .toList();
    }
}
