package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class MetaOptionsTest {

    /** A value becomes a number only when the number reads back as the text the caller wrote. */
    @Test
    void textThatANumberWouldRewriteStaysText() {
        for (String text : List.of("02139", "007", "1.10", "1.0", "01.5", "-0", "-0.0", "0.50", "3.14159265358979323846")) {
            assertThat(MetaOptions.typed(text)).as(text).isEqualTo(text);
        }
        // controls: numbers written as numbers are numbers
        assertThat(MetaOptions.typed("2026")).isEqualTo(2026L);
        assertThat(MetaOptions.typed("0")).isEqualTo(0L);
        assertThat(MetaOptions.typed("-12")).isEqualTo(-12L);
        assertThat(MetaOptions.typed("2.5")).isEqualTo(2.5);
        assertThat(MetaOptions.typed("-0.25")).isEqualTo(-0.25);
        assertThat(MetaOptions.typed("payments")).isEqualTo("payments");
    }

    @Test
    void aKeyGivenTwiceIsAListOfTheTextsAsWritten() {
        assertThat(MetaOptions.map(List.of("zip=02139", "year=2026", "tag=a", "tag=1.10")))
                .isEqualTo(Map.of("zip", "02139", "year", 2026L, "tag", List.of("a", "1.10")));
    }
}
