package dev.openrag.ingest.stage.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/**
 * Issue 72: a run without separators is cut every {@code limit} UTF-16 units, but never between a
 * surrogate pair's halves (a lone surrogate is stored as '?', so a chunk's hash would not match its text).
 */
class RecursiveSplitterTest {

    /** Emoji, supplementary CJK (Extension B) and both mixed with single units, so pairs start at odd and even offsets. */
    private static final List<String> SUPPLEMENTARY = List.of(
            "\uD83D\uDE00".repeat(100),
            IntStream.range(0x20000, 0x20000 + 90).mapToObj(Character::toString).reduce("", String::concat),
            "a\uD83E\uDD8A".repeat(70),
            "漢\uD840\uDC0B字".repeat(50));

    @Test
    void aSupplementaryCharacterIsNeverCutInTwo() {
        for (String text : SUPPLEMENTARY) {
            for (int limit : List.of(1, 2, 7, 40, 41)) {
                List<TextRange> pieces = RecursiveSplitter.pieces(text, 0, text.length(), limit, List.of());
                assertCovers(text, pieces);
                assertThat(pieces).as("limit %d", limit).allSatisfy(piece -> {
                    assertThat(Character.isLowSurrogate(text.charAt(piece.start()))).as("starts inside a pair").isFalse();
                    assertThat(Character.isHighSurrogate(text.charAt(piece.end() - 1))).as("ends inside a pair").isFalse();
                    String cut = text.substring(piece.start(), piece.end());
                    assertThat(new String(cut.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(cut);
                    assertThat(piece.length()).isLessThanOrEqualTo(Math.max(limit, 2));
                });
            }
        }
        // through the chunker too: every chunk's text survives UTF-8 as it is
        for (String text : SUPPLEMENTARY) {
            new PlainTextChunker(41, 10).chunk(text).forEach(chunk -> {
                String cut = text.substring(chunk.start(), chunk.end());
                assertThat(new String(cut.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(cut);
            });
        }
    }

    @Test
    void controlSingleUnitCharactersAreCutAtTheLimitExactly() {
        String text = "漢字かな".repeat(30) + "x".repeat(3);
        List<TextRange> pieces = RecursiveSplitter.pieces(text, 0, text.length(), 41, List.of());
        assertCovers(text, pieces);
        assertThat(pieces).extracting(TextRange::length).containsExactly(41, 41, 41);
        // and a pair that does not straddle a cut leaves the cuts where they were
        String pairInside = "b".repeat(10) + "\uD83D\uDE00" + "b".repeat(70);
        assertThat(RecursiveSplitter.pieces(pairInside, 0, pairInside.length(), 41, List.of()))
                .extracting(TextRange::length).containsExactly(41, 41);
    }

    private static void assertCovers(String text, List<TextRange> pieces) {
        assertThat(pieces.get(0).start()).isZero();
        for (int i = 1; i < pieces.size(); i++) {
            assertThat(pieces.get(i).start()).isEqualTo(pieces.get(i - 1).end());
        }
        assertThat(pieces.get(pieces.size() - 1).end()).isEqualTo(text.length());
    }
}
