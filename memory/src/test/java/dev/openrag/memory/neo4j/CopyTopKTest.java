package dev.openrag.memory.neo4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * A copy's top k ({@link MemoryScopeCopies.Copy#nearest}) passes over memories that cannot enter it without looking at
 * them: it must still give exactly what scoring, filtering and sorting every memory gives, ties by id and the
 * conversation's boost included. The vectors come from a few directions, so that many memories score exactly alike.
 */
class CopyTopKTest {

    private static final long NOW = 1_000_000;

    @Test
    void theTopKIsWhatSortingEveryMemoryGives() {
        Random random = new Random(11);
        float[][] directions = new float[6][];
        for (int d = 0; d < directions.length; d++) {
            directions[d] = vector(random);
        }
        List<MemoryScopeCopies.Copied> rows = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            // ids out of order, so that a tie is broken by id and not by position
            String id = "m" + Integer.toString((i * 7919) % 3_000, 36);
            float[] embedding = i % 3 == 0 ? vector(random) : directions[i % directions.length];
            List<String> conversations = i % 5 == 0 ? List.of("talk") : List.of();
            Long forgottenAt = i % 11 == 0 ? Long.valueOf(NOW - 1) : null;
            rows.add(new MemoryScopeCopies.Copied(new MemoryScopeCopies.Row(id, "note " + i, null, embedding, null,
                    i % 2 == 0 ? "Ada" : "Bo", i, null, conversations), forgottenAt, null, null, null));
        }
        MemoryScopeCopies.Copy copy = MemoryScopeCopies.Copy.of(new MemoryScopeCopies.State("v1", 1, 0, 0, 0, true), false, rows);

        for (int q = 0; q < 20; q++) {
            float[] query = q % 2 == 0 ? vector(random) : directions[q % directions.length];
            double[] similarities = copy.similarities(query);
            for (MemoryScopeCopies.Filter filter : List.of(
                    new MemoryScopeCopies.Filter(false, NOW, null, null, null, null, null, 0, null),
                    new MemoryScopeCopies.Filter(true, NOW, "Ada", null, null, null, null, 0, null),
                    new MemoryScopeCopies.Filter(false, NOW, null, 100L, 2_000L, null, "talk", 0.3, null),
                    new MemoryScopeCopies.Filter(false, NOW, null, null, null, null, "talk", -0.2, null))) {
                for (int k : new int[] {1, 15, 50, 400}) {
                    assertThat(copy.nearest(similarities, filter, k)).as("query %d, %s, k %d", q, filter, k)
                            .isEqualTo(everyMemorySorted(rows, similarities, filter, k));
                }
            }
        }
    }

    /** What the top k is: every memory passing the filter, scored with its boost, best first, ties by id. */
    private static List<MemoryScopeCopies.Scored> everyMemorySorted(List<MemoryScopeCopies.Copied> rows, double[] similarities,
                                                                    MemoryScopeCopies.Filter filter, int k) {
        List<MemoryScopeCopies.Scored> all = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            MemoryScopeCopies.Row row = rows.get(i).row();
            boolean passes = (filter.includeForgotten() || rows.get(i).forgottenAt() == null)
                    && (filter.speaker() == null || filter.speaker().equals(row.speaker()))
                    && (filter.after() == null || row.happened() >= filter.after())
                    && (filter.before() == null || row.happened() < filter.before());
            if (passes) {
                double boost = filter.conversationId() != null && row.conversations().contains(filter.conversationId()) ? filter.boost() : 0;
                all.add(new MemoryScopeCopies.Scored(row.id(), similarities[i] + boost));
            }
        }
        all.sort(Comparator.comparingDouble(MemoryScopeCopies.Scored::score).reversed().thenComparing(MemoryScopeCopies.Scored::id));
        return all.subList(0, Math.min(k, all.size()));
    }

    private static float[] vector(Random random) {
        float[] vector = new float[16];
        for (int d = 0; d < vector.length; d++) {
            vector[d] = (float) random.nextGaussian();
        }
        return vector;
    }
}
