package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    /** A repeated key is a list of strings: a number among its values is refused rather than turned into text. */
    @Test
    void aKeyGivenTwiceWithANumberIsRefusedNamingIt() {
        for (List<String> options : List.of(List.of("year=2025", "year=2026"), List.of("tag=draft", "tag=2"),
                List.of("score=2.5", "score=high"), List.of("year=2025", "team=a", "year=2025"))) {
            assertThatThrownBy(() -> MetaOptions.map(options)).as(options.toString()).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is given").hasMessageContaining("is a number");
        }
        // controls: a number given once stays a number; text that only looks numeric stays text in a list
        assertThat(MetaOptions.map(List.of("year=2025"))).isEqualTo(Map.of("year", 2025L));
        assertThat(MetaOptions.map(List.of("zip=02139", "zip=1.10", "zip=x"))).isEqualTo(Map.of("zip", List.of("02139", "1.10", "x")));
    }

    /** The server's rules, here before anything is sent: reserved names in any case, whatever the default locale. */
    @Test
    void reservedNamesInAnyCaseAreRefusedBeforeAnythingIsSent() {
        java.util.Locale before = java.util.Locale.getDefault();
        try {
            java.util.Locale.setDefault(java.util.Locale.forLanguageTag("tr-TR"));
            for (String option : List.of("title=x", "Title=x", "TITLE=x", "fileName=a", "FILENAME=a", "Or=x", "PREFIX=x")) {
                assertThatThrownBy(() -> MetaOptions.json(List.of(option))).as(option).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith("--meta: metadata key");
            }
            // controls: names that only resemble a reserved one
            assertThat(MetaOptions.map(List.of("subtitle=x", "titles=y", "order=z"))).containsKeys("subtitle", "titles", "order");
        } finally {
            java.util.Locale.setDefault(before);
        }
    }

    /**
     * The cap on the whole of the metadata is the server's setting ({@code openrag.metadata.max-bytes} where it runs):
     * this machine's default, or its own setting, refuses nothing here; the per-key rules still do.
     */
    @Test
    void metadataOverTheDefaultTotalCapIsLeftToTheServer() {
        List<String> over = new java.util.ArrayList<>();
        for (int key = 0; key < 9; key++) {
            for (int item = 0; item < 8; item++) {
                over.add("k" + key + "=" + (char) ('a' + item) + "x".repeat(999)); // 9 keys of 8 distinct 1000-character values
            }
        }
        assertThat(MetaOptions.json(over)).hasSizeGreaterThan(dev.openrag.schemas.Metadata.MAX_TOTAL_BYTES);
        String before = System.getProperty(dev.openrag.schemas.Metadata.MAX_TOTAL_BYTES_PROPERTY);
        System.setProperty(dev.openrag.schemas.Metadata.MAX_TOTAL_BYTES_PROPERTY, "10");
        try {
            assertThat(MetaOptions.map(List.of("team=payments", "year=2026"))).hasSize(2);
            assertThat(MetaOptions.map(over)).hasSize(9);
        } finally {
            if (before == null) {
                System.clearProperty(dev.openrag.schemas.Metadata.MAX_TOTAL_BYTES_PROPERTY);
            } else {
                System.setProperty(dev.openrag.schemas.Metadata.MAX_TOTAL_BYTES_PROPERTY, before);
            }
        }
        // the controls: a value over its own limit, and too many keys, are still refused before anything is sent
        assertThatThrownBy(() -> MetaOptions.json(List.of("team=" + "x".repeat(1025)))).hasMessageStartingWith("--meta: ")
                .hasMessageContaining("at most 1024");
        List<String> keys = new java.util.ArrayList<>();
        for (int key = 0; key < 33; key++) {
            keys.add("k" + key + "=v");
        }
        assertThatThrownBy(() -> MetaOptions.json(keys)).hasMessageStartingWith("--meta: ").hasMessageContaining("at most 32");
    }

    /** The first '=' splits key from value: the rest, '=' included, is the value; a key is never empty. */
    @Test
    void theFirstEqualsSignSplitsAndAKeyIsNeverEmpty() {
        assertThat(MetaOptions.map(List.of("link=https://x.example/?q=1&r=2"))).isEqualTo(Map.of("link", "https://x.example/?q=1&r=2"));
        assertThat(MetaOptions.map(List.of("expr=a=b=c"))).isEqualTo(Map.of("expr", "a=b=c"));
        for (String option : List.of("=v", "=", "novalue")) {
            assertThatThrownBy(() -> MetaOptions.map(List.of(option))).as(option).hasMessageContaining("--meta takes KEY=VALUE");
        }
        assertThatThrownBy(() -> MetaOptions.map(List.of("a.b=v"))).hasMessageContaining("not a plain name");
    }

    /** --filter with a key named twice is refused here: parsed and sent again, it would reach the server as its last value. */
    @Test
    void aFilterNamingAKeyTwiceIsRefused() {
        assertThatThrownBy(() -> MetaOptions.filter("{\"team\": \"a\", \"team\": \"b\"}"))
                .hasMessageStartingWith("--filter is not valid JSON").hasMessageContaining("Duplicate field 'team'");
        assertThat(MetaOptions.filter("{\"team\": \"a\", \"or\": [{\"team\": \"b\"}]}").size()).as("control").isEqualTo(2);
    }
}
