package dev.openrag.query.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.port.ChunkLookup.ChunkKey;
import dev.openrag.knowledge.port.IndexedChunk;

class DocumentExpansionTest {

    private static IndexedChunk chunk(String document, int index) {
        return new IndexedChunk("c", document, document + "#" + index, index, null, null, List.of(), document + " " + index, null, null);
    }

    private static RankFusion.Fused fused(String document, int index, double score) {
        return new RankFusion.Fused(chunk(document, index), score, Map.of("bm25", 1), Map.of("bm25", score));
    }

    @Test
    void plansTheNeighboursOfTheBestDocumentsHitsAndTheirHeads() {
        List<RankFusion.Fused> ranked = List.of(fused("a", 3, 1.0), fused("b", 0, 0.8), fused("a", 4, 0.6), fused("c", 2, 0.5));

        Map<ChunkKey, Double> plan = DocumentExpansion.plan(ranked, 2, 0.5);

        // a's hits 3 and 4 lend 2 and 5 (4 and 3 are hits already); a's head 0; b's neighbour 1 (b's head is a hit)
        assertThat(plan).containsOnlyKeys(new ChunkKey("a", 2), new ChunkKey("a", 5), new ChunkKey("a", 0), new ChunkKey("b", 1));
        assertThat(plan.get(new ChunkKey("a", 2))).isCloseTo(0.5, within(1e-12)); // next to a#3 (1.0)
        assertThat(plan.get(new ChunkKey("a", 5))).isCloseTo(0.3, within(1e-12)); // next to a#4 (0.6)
        assertThat(plan.get(new ChunkKey("a", 0))).isCloseTo(0.5, within(1e-12)); // a's best hit
        assertThat(plan.get(new ChunkKey("b", 1))).isCloseTo(0.4, within(1e-12));
        assertThat(plan.keySet()).noneMatch(key -> key.documentId().equals("c")); // third document: not expanded
    }

    @Test
    void addsWhatTheStoreFoundAtItsPlannedScoreAndSaysSo() {
        List<RankFusion.Fused> ranked = List.of(fused("a", 3, 1.0), fused("b", 0, 0.8), fused("c", 2, 0.2));
        Map<ChunkKey, Double> plan = DocumentExpansion.plan(ranked, 1, 0.5);

        // a#5 does not exist (the document has 5 chunks): the store returns only what is there
        List<RankFusion.Fused> expanded = DocumentExpansion.expand(ranked, plan, List.of(chunk("a", 2), chunk("a", 0)));

        assertThat(expanded).extracting(hit -> hit.chunk().chunkId()).containsExactly("a#3", "b#0", "a#2", "a#0", "c#2");
        RankFusion.Fused added = expanded.get(2);
        assertThat(added.scores()).containsOnlyKeys(DocumentExpansion.SIGNAL);
        assertThat(added.ranks()).isEmpty();
    }

    @Test
    void nothingToAddWhenEveryNeighbourIsAHitAlready() {
        List<RankFusion.Fused> ranked = List.of(fused("a", 0, 1.0), fused("a", 1, 0.9));
        assertThat(DocumentExpansion.plan(ranked, 3, 0.5)).containsOnlyKeys(new ChunkKey("a", 2));
    }
}
