package dev.openrag.ingest.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.ingest.stage.parse.DocumentParser;
import dev.openrag.schemas.Metadata;

class SourceFieldsTest {

    /** A title or author clipped to a caller value's length keeps whole characters: half a pair is no text. */
    @Test
    void aClippedTitleNeverEndsInHalfASurrogatePair() {
        String astral = "\uD835\uDC00"; // 𝐀, two UTF-16 units
        for (int before = Metadata.MAX_VALUE_LENGTH - 3; before <= Metadata.MAX_VALUE_LENGTH; before++) {
            String title = "t".repeat(before) + astral.repeat(600);
            String clipped = (String) SourceFields.afterParse(Map.of(), parsed(title)).get("title");
            assertThat(clipped.length()).as("%d before", before).isBetween(Metadata.MAX_VALUE_LENGTH - 1, Metadata.MAX_VALUE_LENGTH);
            assertThat(title).startsWith(clipped);
            assertThat(Character.isHighSurrogate(clipped.charAt(clipped.length() - 1))).as("%d before", before).isFalse();
            assertThat(clipped.codePoints().noneMatch(point -> point >= 0xD800 && point <= 0xDFFF)).as("no lone surrogate").isTrue();
        }
        // the controls: plain text is cut at the limit exactly; a short title is whole
        assertThat(SourceFields.clipped("x".repeat(2000), Metadata.MAX_VALUE_LENGTH)).hasSize(Metadata.MAX_VALUE_LENGTH);
        assertThat(SourceFields.clipped("Guide " + astral, Metadata.MAX_VALUE_LENGTH)).isEqualTo("Guide " + astral);
    }

    private static DocumentParser.Parsed parsed(String title) {
        return new DocumentParser.Parsed("text", title, "text/plain", List.of(), List.of(), Map.of());
    }
}
