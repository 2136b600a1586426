package dev.openrag.query.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.port.ScoredChunk;

class RankFusionTest {

    private static ScoredChunk hit(String id, int rank, double score) {
        return new ScoredChunk(new IndexedChunk("c", "d", id, 0, null, null, List.of(), id, null, null), rank, score);
    }

    @Test
    void sumsWeightedReciprocalRanksAndKeepsEachRetrieversRank() {
        Map<String, List<ScoredChunk>> hits = new java.util.LinkedHashMap<>();
        hits.put("vector", List.of(hit("a", 1, 0.9), hit("b", 2, 0.8)));
        hits.put("bm25", List.of(hit("b", 1, 12.0), hit("c", 2, 7.0)));

        List<RankFusion.Fused> fused = RankFusion.fuse(hits, Map.of("vector", 1.0, "bm25", 1.0), 60);

        assertThat(fused).extracting(f -> f.chunk().chunkId()).containsExactly("b", "a", "c");
        assertThat(fused.get(0).score()).isCloseTo(1.0 / 62 + 1.0 / 61, within(1e-12));
        assertThat(fused.get(0).ranks()).containsEntry("vector", 2).containsEntry("bm25", 1);
        assertThat(fused.get(0).scores()).containsEntry("bm25", 12.0);
        assertThat(fused.get(2).ranks()).containsOnlyKeys("bm25");
    }

    @Test
    void weightsShiftTheOrder() {
        Map<String, List<ScoredChunk>> hits = Map.of("vector", List.of(hit("a", 1, 0.9)), "bm25", List.of(hit("b", 1, 5.0)));

        List<RankFusion.Fused> fused = RankFusion.fuse(hits, Map.of("vector", 1.0, "bm25", 2.0), 60);

        assertThat(fused.get(0).chunk().chunkId()).isEqualTo("b");
    }
}
