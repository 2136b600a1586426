package dev.openrag.memory.neo4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** A memory's two vectors packed into one byte array and back, to the bit. */
class MemoryVectorsTest {

    @Test
    void bothVectorsComeBackToTheBit() {
        float[] first = {0.1f, -3.5e-8f, Float.MIN_VALUE, 1f};
        float[] second = {7f, -0.25f, 1e30f};
        MemoryVectors back = MemoryVectors.unpacked(new MemoryVectors(first, second).packed());
        assertThat(back.embedding()).containsExactly(first);
        assertThat(back.second()).containsExactly(second);
        assertThat(new MemoryVectors(first, second).packed()).hasSize(4 + 4 * 7);
    }

    @Test
    void aMemoryWithoutASecondVectorHasNoneBack() {
        float[] first = {1f, 2f, 3f};
        MemoryVectors back = MemoryVectors.unpacked(new MemoryVectors(first, null).packed());
        assertThat(back.embedding()).containsExactly(first);
        assertThat(back.second()).isNull();
    }

    @Test
    void bytesTooShortForTheirFirstVectorAreAClearError() {
        byte[] packed = new MemoryVectors(new float[] {1f, 2f, 3f}, null).packed();
        assertThatThrownBy(() -> MemoryVectors.unpacked(Arrays.copyOf(packed, packed.length - 4)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("first vector of 3");
    }
}
