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

    private static RankFusion.Fused fused(String document, int index, double score) {
        IndexedChunk chunk = new IndexedChunk("c", document, document + "#" + index, index, null, null, List.of(), "text", null, null);
        return new RankFusion.Fused(chunk, score, Map.of(), Map.of());
    }

    @Test
    void aDocumentsHeadFollowsItsBestHitUp() {
        List<RankFusion.Fused> ranked = List.of(fused("a", 3, 0.04), fused("b", 0, 0.03), fused("b", 2, 0.02),
                fused("a", 0, 0.01), fused("c", 5, 0.005));

        Map<String, Double> heads = RankFusion.documentHeads(ranked);

        // a's head gets a's best (0.04) over the best overall (0.04); b's head its own 0.03; c has no head among the hits
        assertThat(heads).containsOnlyKeys("a#0", "b#0");
        assertThat(heads.get("a#0")).isCloseTo(1.0, within(1e-12));
        assertThat(heads.get("b#0")).isCloseTo(0.75, within(1e-12));

        List<RankFusion.Fused> lifted = RankFusion.rescore(ranked, heads, 0.3, "head");
        assertThat(lifted).extracting(f -> f.chunk().chunkId()).containsExactly("a#3", "b#0", "a#0", "b#2", "c#5");
        assertThat(lifted.get(1).score()).isCloseTo(0.75 + 0.3 * 0.75, within(1e-12));
        assertThat(lifted.get(2).score()).isCloseTo(0.25 + 0.3, within(1e-12));
        assertThat(lifted.get(1).scores()).containsEntry("head", 0.75);
        assertThat(lifted.get(3).scores()).doesNotContainKey("head");
    }
}
