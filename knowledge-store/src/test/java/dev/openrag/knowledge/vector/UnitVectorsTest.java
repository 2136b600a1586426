package dev.openrag.knowledge.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class UnitVectorsTest {

    @Test
    void vectorsWithMoreAreTheOldOnesAndTheNewOnesNormalisedWhicheverWasGrownFirst() {
        UnitVectors base = UnitVectors.of(new float[][] {{3, 4}, {0, 2}}, 2);
        UnitVectors once = base.with(new float[][] {{5, 0}});
        UnitVectors again = base.with(new float[][] {{0, -1}}); // a second successor of the same vectors: its own copy
        UnitVectors twice = once.with(new float[][] {{1, 1}, {-2, 0}});

        assertThat(base.size()).isEqualTo(2);
        assertThat(once.size()).isEqualTo(3);
        assertThat(once.vector(2)).containsExactly(1, 0);
        assertThat(again.vector(2)).containsExactly(0, -1);
        assertThat(twice.size()).isEqualTo(5);
        assertThat(twice.vector(0)).containsExactly(0.6f, 0.8f);
        assertThat(twice.vector(2)).containsExactly(1, 0);
        assertThat(twice.vector(3)[0]).isCloseTo((float) Math.sqrt(0.5), within(1e-6f));
        assertThat(twice.similarities(new float[] {1, 0})).containsExactly(new double[] {0.8, 0.5, 1.0, (1 + Math.sqrt(0.5)) / 2, 0},
                within(1e-6));
        assertThat(base.similarities(new float[] {1, 0})).hasSize(2);
        assertThatThrownBy(() -> base.with(new float[][] {{1, 2, 3}})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 dimensions, the others 2");
    }
}
