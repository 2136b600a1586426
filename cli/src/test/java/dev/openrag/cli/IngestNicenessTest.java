package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.LocalStackException;

/** OPENRAG_INGEST_NICENESS: the ingest pipeline's CPU priority under `openrag up`. */
class IngestNicenessTest {

    @Test
    void unsetMeansTheDefaultAndZeroTurnsItOff() {
        assertThat(Stack.ingestNiceness(null)).isEqualTo(Stack.DEFAULT_INGEST_NICENESS).isEqualTo(10);
        assertThat(Stack.ingestNiceness(" ")).isEqualTo(10);
        assertThat(Stack.ingestNiceness("0")).isZero();
        assertThat(Stack.ingestNiceness(" 19 ")).isEqualTo(19);
    }

    @Test
    void anythingElseIsAClearError() {
        for (String bad : new String[] {"-1", "20", "ten", "5.5"}) {
            assertThatThrownBy(() -> Stack.ingestNiceness(bad)).isInstanceOf(LocalStackException.class)
                    .hasMessage("OPENRAG_INGEST_NICENESS must be a whole number from 0 (normal priority) to 19 (lowest), not '" + bad + "'");
        }
    }
}
