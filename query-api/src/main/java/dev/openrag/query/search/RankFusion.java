package dev.openrag.query.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.port.ScoredChunk;

/**
 * Reciprocal rank fusion: a chunk's fused score is the sum over retrievers of
 * {@code weight / (k + rank)}. Ranks, not raw scores, so BM25 and cosine scores never need
 * calibrating against each other. Ties keep the order of first appearance.
 */
public final class RankFusion {

    /**
     * A fused hit: the chunk, its fused score, and its rank and score in each retriever that found it
     * (with the signals behind a retriever's score, such as {@code graph.name}).
     */
    public record Fused(IndexedChunk chunk, double score, Map<String, Integer> ranks, Map<String, Double> scores) {
    }

    private RankFusion() {
    }

    /**
     * A later stage's say: every hit's score divided by the best one, plus {@code weight} times
     * its {@code signal} (floored at 0; none for a hit without one), re-sorted. The signal shows
     * in the hit's scores under {@code name}.
     */
    public static List<Fused> rescore(List<Fused> ranked, Map<String, Double> signal, double weight, String name) {
        double best = ranked.get(0).score();
        List<Fused> rescored = new ArrayList<>(ranked.size());
        for (Fused hit : ranked) {
            Double value = signal.get(hit.chunk().chunkId());
            Map<String, Double> scores = new LinkedHashMap<>(hit.scores());
            if (value != null) {
                scores.put(name, value);
            }
            rescored.add(new Fused(hit.chunk(), hit.score() / best + (value == null ? 0 : weight * Math.max(0, value)),
                    hit.ranks(), scores));
        }
        rescored.sort(Comparator.comparingDouble(Fused::score).reversed());
        return rescored;
    }

    /**
     * The document-head prior: for every document among the hits, its head chunk (index 0: a
     * file's licence, imports and type declaration, a page's title and opening) gets the best
     * score of any of that document's hits, divided by the best score overall. Questions about a
     * file or page as a whole ("what does this class do", "which licence") point at its head, while
     * the chunk that matched best is often deeper in; the prior lets the head follow its document
     * up. Heads that are not among the hits are left out: no extra store round trip.
     */
    public static Map<String, Double> documentHeads(List<Fused> ranked) {
        double best = ranked.get(0).score();
        Map<String, Double> documentBest = new HashMap<>();
        Map<String, String> heads = new HashMap<>();
        for (Fused hit : ranked) {
            documentBest.merge(hit.chunk().documentId(), hit.score(), Math::max);
            if (hit.chunk().chunkIndex() == 0) {
                heads.put(hit.chunk().documentId(), hit.chunk().chunkId());
            }
        }
        Map<String, Double> signal = new HashMap<>();
        heads.forEach((document, head) -> signal.put(head, documentBest.get(document) / best));
        return signal;
    }

    /** One item of {@link #reciprocal}: the item as it first appeared, its fused score, and its rank in each list that had it. */
    public record Ranked<T>(T item, double score, Map<String, Integer> ranks) {
    }

    /**
     * Reciprocal rank fusion of named lists (retrievers, or collections searched apart): an item's
     * score is the sum over lists of {@code weight / (k + rank)} (weight 1 for a list not in
     * {@code weights}), items told apart by {@code idOf}; best first, ties in order of first appearance.
     */
    public static <T> List<Ranked<T>> reciprocal(Map<String, List<T>> lists, Map<String, Double> weights, int k,
                                                 Function<T, String> idOf, ToIntFunction<T> rankOf) {
        Map<String, T> items = new LinkedHashMap<>();
        Map<String, Double> fused = new LinkedHashMap<>();
        Map<String, Map<String, Integer>> ranks = new LinkedHashMap<>();
        lists.forEach((list, hits) -> {
            double weight = weights.getOrDefault(list, 1.0);
            for (T hit : hits) {
                String id = idOf.apply(hit);
                items.putIfAbsent(id, hit);
                fused.merge(id, weight / (k + rankOf.applyAsInt(hit)), Double::sum);
                ranks.computeIfAbsent(id, x -> new LinkedHashMap<>()).put(list, rankOf.applyAsInt(hit));
            }
        });
        List<Ranked<T>> results = new ArrayList<>();
        fused.forEach((id, score) -> results.add(new Ranked<>(items.get(id), score, ranks.get(id))));
        results.sort(Comparator.comparingDouble(Ranked<T>::score).reversed());
        return results;
    }

    public static List<Fused> fuse(Map<String, List<ScoredChunk>> byRetriever, Map<String, Double> weights, int k) {
        Map<String, Map<String, Double>> scores = new HashMap<>();
        byRetriever.forEach((retriever, hits) -> {
            for (ScoredChunk hit : hits) {
                Map<String, Double> hitScores = scores.computeIfAbsent(hit.chunk().chunkId(), x -> new LinkedHashMap<>());
                hitScores.put(retriever, hit.score());
                hitScores.putAll(hit.signals()); // after the retriever's own score, which a single mode reports first
            }
        });
        List<Fused> results = new ArrayList<>();
        for (Ranked<ScoredChunk> hit : reciprocal(byRetriever, weights, k, h -> h.chunk().chunkId(), ScoredChunk::rank)) {
            results.add(new Fused(hit.item().chunk(), hit.score(), hit.ranks(), scores.get(hit.item().chunk().chunkId())));
        }
        return results;
    }
}
