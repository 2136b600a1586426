package dev.openrag.ingest.stage.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.DocumentParsed;
import dev.openrag.schemas.PremadeChunk;
import dev.openrag.schemas.Source;

class ChunkersTest {

    @Test
    void recursivePiecesCoverTheTextWithoutGapsAndRespectTheLimit() {
        String text = "First paragraph sentence one. Sentence two is here.\n\nSecond paragraph.\n" + "word ".repeat(80);
        List<TextRange> pieces = RecursiveSplitter.pieces(text, 0, text.length(), 40, List.of());

        assertThat(pieces).allSatisfy(p -> assertThat(p.length()).isBetween(1, 40));
        for (int i = 1; i < pieces.size(); i++) {
            assertThat(pieces.get(i).start()).isEqualTo(pieces.get(i - 1).end());
        }
        assertThat(pieces.get(0).start()).isZero();
        assertThat(pieces.get(pieces.size() - 1).end()).isEqualTo(text.length());
    }

    @Test
    void packedChunksOverlap() {
        String text = "aaaa. bbbb. cccc. dddd. eeee. ffff. ";
        List<TextRange> chunks = new PlainTextChunker(12, 6).chunk(text);

        assertThat(chunks).hasSizeGreaterThan(2);
        assertThat(chunks).allSatisfy(c -> assertThat(c.length()).isLessThanOrEqualTo(12));
        assertThat(chunks.get(1).start()).as("second chunk starts inside the first").isLessThan(chunks.get(0).end());
        assertThat(chunks.get(chunks.size() - 1).end()).isEqualTo(text.length());
    }

    @Test
    void markdownKeepsHeadingPathsAndNeverSplitsAFence() {
        String fence = "```java\n" + "int x = 1;\n".repeat(40) + "```\n";
        String text = "# Guide\n\nIntro text.\n\n## Install\n\n" + "Install words. ".repeat(30) + "\n\n" + fence
                + "\n## Use\n\nUse it.\n";
        List<TextRange> chunks = new MarkdownChunker(20, 200, 300).chunk(text);

        assertThat(chunks).anySatisfy(c -> {
            assertThat(text.substring(c.start(), c.end())).contains(fence.strip());
            assertThat(c.headingPath()).containsExactly("Guide", "Install");
        });
        assertThat(chunks).anySatisfy(c -> assertThat(c.headingPath()).containsExactly("Guide", "Use"));
        assertThat(chunks).noneSatisfy(c -> assertThat(text.substring(c.start(), c.end())).contains("```java").doesNotContain("```\n"));
    }

    @Test
    void markdownMergesSmallSiblingsUnderTheirSharedParent() {
        String text = "# Guide\n\n## A\n\nShort a.\n\n## B\n\nShort b.\n";
        List<TextRange> chunks = new MarkdownChunker(400, 1600, 3200).chunk(text);

        assertThat(chunks).hasSize(2);
        assertThat(chunks.get(1).headingPath()).containsExactly("Guide");
        assertThat(text.substring(chunks.get(1).start(), chunks.get(1).end())).contains("Short a.").contains("Short b.");
    }

    @Test
    void codeIsCutAtTopLevelDeclarationsWithTheirDocComments() {
        String code = """
                use std::fmt;

                /// A point in the plane.
                pub struct Point {
                    x: i32,
                }

                /// Distance to the origin.
                pub fn norm(p: &Point) -> f64 {
                    ((p.x * p.x) as f64).sqrt()
                }
                """;
        List<TextRange> chunks = new CodeChunker("rust", 60, 400).chunk(code);

        assertThat(chunks).anySatisfy(c -> assertThat(code.substring(c.start(), c.end()))
                .startsWith("/// A point in the plane.").contains("pub struct Point").doesNotContain("fn norm"));
        assertThat(chunks).anySatisfy(c -> assertThat(code.substring(c.start(), c.end()))
                .startsWith("/// Distance to the origin.").contains("pub fn norm"));
    }

    /** Sizes for the pre-made chunk tests (pre-made chunks are never re-cut, whatever they say). */
    private static final ChunkingConfig PREMADE_CONFIG = new ChunkingConfig() {
        public int sizeTokens() { return 400; }
        public int overlapTokens() { return 60; }
        public int markdownMinTokens() { return 100; }
        public int markdownTargetTokens() { return 400; }
        public int maxTokens() { return 800; }
    };

    @Test
    void premadeChunksPassThroughWithTheirIndexes() {
        DocumentParsed parsed = new DocumentParsed(1, "e", "doc-1", "j", "corpus", new Source("corpus", "corpus://doc_1"),
                "doc_1", "text/plain", "alpha beta gamma", "h", null,
                List.of(new PremadeChunk("c0", 0, "alpha beta"), new PremadeChunk("c1", 1, "gamma")), Map.of(), null, null);

        List<Chunk> chunks = new DocumentChunker(PREMADE_CONFIG).chunk(parsed);

        assertThat(chunks).extracting(Chunk::chunkId).containsExactly("corpus/doc-1#0", "corpus/doc-1#1");
        assertThat(chunks).extracting(Chunk::text).containsExactly("alpha beta", "gamma");
        assertThat(chunks.get(1).startOffset()).isEqualTo(11);
    }

    /** Issue 61: a pre-made chunk the text does not hold carries no span (-1, -1), and the text sink keeps none for it, only its text's hash. */
    @Test
    void aPremadeChunkNotInTheTextHasNoSpan() {
        DocumentParsed parsed = new DocumentParsed(1, "e", "doc-1", "j", "corpus", new Source("corpus", "corpus://doc_1"),
                "doc_1", "text/plain", "alpha beta gamma", "h", null,
                List.of(new PremadeChunk("c0", 0, "alpha beta"), new PremadeChunk("c1", 1, "delta")), Map.of(), null, null);
        List<Chunk> chunks = new DocumentChunker(PREMADE_CONFIG).chunk(parsed);
        assertThat(chunks.get(1).startOffset()).isEqualTo(-1);
        assertThat(chunks.get(1).endOffset()).isEqualTo(-1);

        var text = dev.openrag.ingest.sink.TextSinkAccess.of(new dev.openrag.schemas.DocumentChunked(1, "e", "doc-1", "j", "corpus",
                new Source("corpus", "corpus://doc_1"), "doc_1", "text/plain", parsed.text(), "h", chunks, Map.of(), null, null, null));
        assertThat(text.chunks()).extracting(span -> span.index()).containsExactly(0);
        assertThat(text.chunk(0).orElseThrow().end()).isEqualTo(10);
        // issue 72: kept as lying elsewhere, by its own text, so that a hit on it needs no read of the text
        assertThat(text.elsewhere()).containsExactly(new dev.openrag.knowledge.browse.DocumentText.Elsewhere(1,
                dev.openrag.knowledge.browse.ChunkPlace.hash("delta")));
        assertThat(text.place(1).orElseThrow().holds("delta")).isTrue();
    }
}
