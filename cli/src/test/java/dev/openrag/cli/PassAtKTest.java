package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.openrag.cli.PassAtK.ChunkRef;

class PassAtKTest {

    private static ChunkRef c(String document, int index) {
        return new ChunkRef(document, index);
    }

    @Test
    void scoresTheShareOfGoldenChunksInTheTopKAveragedOverQueries() {
        // query 1: two golden chunks, ranked 3rd and 7th
        List<ChunkRef> ranked1 = List.of(c("x", 0), c("x", 1), c("a", 0), c("x", 2), c("x", 3), c("x", 4), c("b", 2));
        Set<ChunkRef> golden1 = Set.of(c("a", 0), c("b", 2));
        // query 2: one golden chunk, not found at all
        List<ChunkRef> ranked2 = List.of(c("x", 0), c("x", 1));
        Set<ChunkRef> golden2 = Set.of(c("c", 5));

        assertThat(PassAtK.forQuery(golden1, ranked1, 5)).isEqualTo(0.5);
        assertThat(PassAtK.forQuery(golden1, ranked1, 10)).isEqualTo(1.0);
        assertThat(PassAtK.forQuery(golden2, ranked2, 20)).isZero();
        // by hand: pass@5 = (0.5 + 0) / 2, pass@10 = (1 + 0) / 2
        assertThat(PassAtK.mean(List.of(0.5, 0.0))).isCloseTo(0.25, within(1e-9));
        assertThat(PassAtK.summaryLine(0.25, 0.5, 0.5, 2)).isEqualTo("pass@5=0.2500 pass@10=0.5000 pass@20=0.5000 queries=2");
    }

    @Test
    void theSameChunkTwiceCountsOnce() {
        assertThat(PassAtK.forQuery(Set.of(c("a", 0), c("a", 1)), List.of(c("a", 0), c("a", 0)), 5)).isEqualTo(0.5);
    }
}
