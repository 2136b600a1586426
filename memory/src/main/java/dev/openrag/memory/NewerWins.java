package dev.openrag.memory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Search signal "newer wins on the same fact". Needs: a {@value Memory#SUGGESTED_SUPERSEDES} link
 * ({@link FactChanges}) from a newer memory that is current for the search (not forgotten, expired
 * or superseded; with {@code asOf}, happened by then), and a question that asks about the fact the
 * link names (it shares one of the fact's word stems). Without either it does nothing: an older
 * memory keeps its place for everything else it says ("do I prefer tabs or spaces" after "I moved
 * to Porto" still finds "I live in Lisbon and prefer tabs").
 * <p>
 * What it does: the newer memory is placed right above the older one, moved up from lower down the
 * results or brought in from outside them. Nothing is removed; {@code asOf} before the change finds
 * the older memory first, as the newer had not happened yet.
 * <p>
 * Effect measured (docs/benchmarks.md, Memory): the agent-memory scenarios' updates
 * without a caller's {@code supersedes} go from the older memory first to the newer first; LoCoMo's
 * evidence recall is unchanged (its adds name no suggestions in a batch).
 */
public final class NewerWins {

    /** A current newer memory suggested to replace an older one: its id, when it happened, its fact's word stems. */
    public record Newer(String id, long happened, List<String> words) {
    }

    private NewerWins() {
    }

    /** A result's place: its id, and the older memory it was placed above ({@code null}: it kept the place it ranked at). */
    public record Placed(String id, String above) {
    }

    /**
     * {@code ranked} (memory and message ids, best first) with every newer memory of {@code newerOf}
     * (older id → its newer ones) whose fact {@code question} asks about placed right above its older one.
     */
    public static List<Placed> order(String question, List<String> ranked, Map<String, List<Newer>> newerOf) {
        List<Placed> order = new ArrayList<>(ranked.stream().map(id -> new Placed(id, null)).toList());
        if (question == null || newerOf.isEmpty()) {
            return order;
        }
        for (String old : ranked) {
            List<Newer> newer = newerOf.getOrDefault(old, List.of()).stream()
                    .filter(candidate -> FactChanges.asksAbout(question, candidate.words()))
                    .sorted(Comparator.comparingLong(Newer::happened).reversed()) // each goes right above the older: the newest first
                    .toList();
            for (Newer candidate : newer) {
                int at = indexOf(order, candidate.id());
                if (at >= 0 && at < indexOf(order, old)) {
                    continue;
                }
                if (at >= 0) {
                    order.remove(at);
                }
                order.add(indexOf(order, old), new Placed(candidate.id(), old));
            }
        }
        return order;
    }

    private static int indexOf(List<Placed> order, String id) {
        for (int i = 0; i < order.size(); i++) {
            if (order.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
    }
}
