package dev.openrag.query.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    public static List<Fused> fuse(Map<String, List<ScoredChunk>> byRetriever, Map<String, Double> weights, int k) {
        Map<String, IndexedChunk> chunks = new LinkedHashMap<>();
        Map<String, Double> fused = new LinkedHashMap<>();
        Map<String, Map<String, Integer>> ranks = new LinkedHashMap<>();
        Map<String, Map<String, Double>> scores = new LinkedHashMap<>();
        byRetriever.forEach((retriever, hits) -> {
            double weight = weights.getOrDefault(retriever, 1.0);
            for (ScoredChunk hit : hits) {
                String id = hit.chunk().chunkId();
                chunks.putIfAbsent(id, hit.chunk());
                fused.merge(id, weight / (k + hit.rank()), Double::sum);
                ranks.computeIfAbsent(id, x -> new LinkedHashMap<>()).put(retriever, hit.rank());
                Map<String, Double> hitScores = scores.computeIfAbsent(id, x -> new LinkedHashMap<>());
                hitScores.put(retriever, hit.score());
                hitScores.putAll(hit.signals()); // after the retriever's own score, which a single mode reports first
            }
        });
        List<Fused> results = new ArrayList<>();
        fused.forEach((id, score) -> results.add(new Fused(chunks.get(id), score, ranks.get(id), scores.get(id))));
        results.sort(Comparator.comparingDouble(Fused::score).reversed());
        return results;
    }
}
