package dev.openrag.query.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.openrag.knowledge.port.ChunkLookup.ChunkKey;
import dev.openrag.knowledge.port.IndexedChunk;

/**
 * Document expansion: the chunks next to the hits of the best documents, and those documents'
 * heads, join the candidates. A question's answer sits in one document, and the retrievers often
 * find that document through a chunk that is not the answer: the answer is then a continuation
 * chunk that does not repeat the question's words, or the file's head (licence, imports, type
 * declaration). Each added chunk scores {@code ratio} times the hit it is next to (the head: times
 * its document's best hit), then the second stage ranks it like any other candidate. Its score
 * shows in explain as {@value #SIGNAL}.
 */
final class DocumentExpansion {

    static final String SIGNAL = "expand";

    private DocumentExpansion() {
    }

    /** The chunks to add, each with its score: neighbours of the hits of the first {@code documents} documents, and their heads. */
    static Map<ChunkKey, Double> plan(List<RankFusion.Fused> ranked, int documents, double ratio) {
        Map<String, Double> best = new LinkedHashMap<>();
        for (RankFusion.Fused hit : ranked) {
            if (best.size() == documents && !best.containsKey(hit.chunk().documentId())) {
                continue;
            }
            best.merge(hit.chunk().documentId(), hit.score(), Math::max);
        }
        Set<ChunkKey> present = new HashSet<>();
        ranked.forEach(hit -> present.add(key(hit.chunk())));
        Map<ChunkKey, Double> wanted = new LinkedHashMap<>();
        for (RankFusion.Fused hit : ranked) {
            if (!best.containsKey(hit.chunk().documentId())) {
                continue;
            }
            for (int index : new int[] {hit.chunk().chunkIndex() - 1, hit.chunk().chunkIndex() + 1}) {
                ChunkKey neighbour = new ChunkKey(hit.chunk().documentId(), index);
                if (index >= 0 && !present.contains(neighbour)) {
                    wanted.merge(neighbour, ratio * hit.score(), Math::max);
                }
            }
        }
        best.forEach((document, score) -> {
            ChunkKey head = new ChunkKey(document, 0);
            if (!present.contains(head)) {
                wanted.merge(head, ratio * score, Math::max);
            }
        });
        return wanted;
    }

    /** The candidates with the {@code found} chunks of the plan added at their planned scores, re-sorted. */
    static List<RankFusion.Fused> expand(List<RankFusion.Fused> ranked, Map<ChunkKey, Double> plan, List<IndexedChunk> found) {
        List<RankFusion.Fused> expanded = new ArrayList<>(ranked);
        for (IndexedChunk chunk : found) {
            Double score = plan.get(key(chunk));
            if (score != null) {
                expanded.add(new RankFusion.Fused(chunk, score, Map.of(), Map.of(SIGNAL, score)));
            }
        }
        expanded.sort(Comparator.comparingDouble(RankFusion.Fused::score).reversed());
        return expanded;
    }

    private static ChunkKey key(IndexedChunk chunk) {
        return new ChunkKey(chunk.documentId(), chunk.chunkIndex());
    }
}
