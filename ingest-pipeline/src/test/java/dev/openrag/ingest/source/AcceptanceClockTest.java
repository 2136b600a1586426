package dev.openrag.ingest.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** Acceptance times: a document's calls in one millisecond are stamped in the order they came, other documents keep the wall clock's. */
class AcceptanceClockTest {

    private final AtomicLong wall = new AtomicLong(1_000);
    private final AcceptanceClock clock = new AcceptanceClock(wall::get);

    @Test
    void aDeleteAndAReuploadOfOneDocumentInTheSameMillisecondAreStampedInTheirOrder() {
        long delete = clock.stamp("c", "doc");
        long reupload = clock.stamp("c", "doc");
        long deleteAgain = clock.stamp("c", "doc");
        assertThat(reupload).as("after the delete (a delete wins a tie)").isGreaterThan(delete);
        assertThat(deleteAgain).isGreaterThan(reupload);
        // controls: the same document in a later millisecond, and the same id in another collection, keep the wall clock's time
        wall.set(1_010);
        assertThat(clock.stamp("c", "doc")).isEqualTo(1_010);
        assertThat(clock.stamp("other", "doc")).isEqualTo(1_010);
    }

    @Test
    void aBurstOfOtherDocumentsDoesNotRunTheClockAhead() {
        for (int i = 0; i < 10_000; i++) {
            assertThat(clock.stamp("c", "doc-" + i)).isEqualTo(1_000);
        }
        assertThat(clock.stamp("c", "doc-7")).as("one of them again, still in that millisecond").isEqualTo(1_001);
        wall.set(1_002);
        assertThat(clock.stamp("c", "doc-7")).isEqualTo(1_002);
    }

    @Test
    void noStampIsEarlierThanOneGivenBeforeWhenTheWallClockStepsBack() {
        long delete = clock.stamp("c", "doc");
        wall.set(400);
        assertThat(clock.stamp("c", "doc")).isGreaterThan(delete);
        assertThat(clock.stamp("c", "other")).isEqualTo(delete);
    }
}
