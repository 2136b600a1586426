package dev.openrag.knowledge.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.api.Test;

/** Time words in a question become a window, counted from the reference time. */
class TimeExpressionsTest {

    private static final long REFERENCE = Instant.parse("2023-06-14T10:00:00Z").toEpochMilli(); // a Wednesday

    private static String window(String question) {
        return TimeExpressions.window(question, REFERENCE)
                .map(w -> Instant.ofEpochMilli(w.from()) + ".." + Instant.ofEpochMilli(w.to())).orElse("none");
    }

    @Test
    void monthsAndYearsNamedInTheQuestion() {
        assertThat(window("What did Maria donate in December 2023?")).isEqualTo("2023-12-01T00:00:00Z..2024-01-01T00:00:00Z");
        assertThat(window("what happened in Sep, 2022")).isEqualTo("2022-09-01T00:00:00Z..2022-10-01T00:00:00Z");
        assertThat(window("Where did they travel in 2022?")).isEqualTo("2022-01-01T00:00:00Z..2023-01-01T00:00:00Z");
    }

    @Test
    void daysInTheWaysPeopleWriteThem() {
        assertThat(window("What exciting news did Maria share on 16 June, 2023?")).isEqualTo("2023-06-16T00:00:00Z..2023-06-17T00:00:00Z");
        assertThat(window("what happened on June 16th 2023")).isEqualTo("2023-06-16T00:00:00Z..2023-06-17T00:00:00Z");
        assertThat(window("on the 3rd of Sep. 2022")).isEqualTo("2022-09-03T00:00:00Z..2022-09-04T00:00:00Z");
        assertThat(window("the deploy of 2023-06-16")).isEqualTo("2023-06-16T00:00:00Z..2023-06-17T00:00:00Z");
    }

    @Test
    void aDayThatDoesNotExistIsReadAsItsMonthAndANonsenseIsoDateAsNothing() {
        assertThat(window("what did we plan on 31 February, 2023")).isEqualTo("2023-02-01T00:00:00Z..2023-03-01T00:00:00Z");
        assertThat(window("ticket 2023-13-45")).isEqualTo("none");
        assertThat(window("ticket 2023-02-30")).isEqualTo("2023-02-01T00:00:00Z..2023-03-01T00:00:00Z");
    }

    @Test
    void relativeWordsCountFromTheReference() {
        assertThat(window("what did I eat yesterday")).isEqualTo("2023-06-13T00:00:00Z..2023-06-14T00:00:00Z");
        assertThat(window("plans made last week")).isEqualTo("2023-06-05T00:00:00Z..2023-06-12T00:00:00Z");
        assertThat(window("the trip last month")).isEqualTo("2023-05-01T00:00:00Z..2023-06-01T00:00:00Z");
        assertThat(window("what was bought 2 days ago")).isEqualTo("2023-06-12T00:00:00Z..2023-06-13T00:00:00Z");
    }

    @Test
    void noTimeWordsNoWindow() {
        assertThat(window("What may Caroline pursue in her education?")).isEqualTo("none");
        assertThat(window("the event last weekend")).isEqualTo("none");
        assertThat(window("room 2023 on the third floor")).isEqualTo("none");
    }
}
