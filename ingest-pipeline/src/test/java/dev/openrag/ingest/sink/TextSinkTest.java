package dev.openrag.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.browse.ChunkPlace;
import dev.openrag.knowledge.browse.DocumentText;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.DocumentChunked;
import dev.openrag.schemas.Source;

/**
 * Issue 72: only a chunk whose text the document's text holds nowhere is kept as lying elsewhere; one
 * whose text is in it but not at its offsets gets no place, so that a hit on it is cited as of another
 * version by its place as by the whole text, never as a pre-made chunk.
 */
class TextSinkTest {

    private static final String TEXT = "Otters float on their backs. Beavers build dams. Otters float on their backs.";

    private static Chunk chunk(int index, String text, int start, int end) {
        return new Chunk("c/d#" + index, index, text, List.of(), start, end, null, null);
    }

    private static DocumentText of(List<Chunk> chunks) {
        return TextSink.of(new DocumentChunked(1, "e", "d", "j", "c", new Source("corpus", "corpus://d"), "d", "text/plain",
                TEXT, "v1", chunks, Map.of(), null, null, null));
    }

    @Test
    void aChunkWhoseTextIsInTheDocumentButNotAtItsOffsetsHasNoPlace() {
        DocumentText text = of(List.of(
                chunk(0, "Otters float on their backs.", 0, 28),                  // at its offsets
                chunk(1, "Beavers build dams.", 0, 19),                           // in the text, other offsets
                chunk(2, "Beavers build dams.", -1, -1),                          // in the text, no offsets
                chunk(3, "Otters float on their back", 29, 55),                   // in the text, offsets a bit off
                chunk(4, "GET /otters: lists the otters.", -1, -1),               // nowhere in the text
                chunk(5, "Beavers build dams!", 29, 48)));                        // nowhere: one character differs
        assertThat(text.chunks()).extracting(DocumentText.ChunkSpan::index).containsExactly(0);
        assertThat(text.elsewhere()).containsExactly(
                new DocumentText.Elsewhere(4, ChunkPlace.hash("GET /otters: lists the otters.")),
                new DocumentText.Elsewhere(5, ChunkPlace.hash("Beavers build dams!")));
        assertThat(text.knowsEveryChunk()).isTrue();
        for (int index : List.of(1, 2, 3)) {
            assertThat(text.place(index)).as("chunk %d", index).isEmpty();
        }
        assertThat(text.place(0).orElseThrow().holds("Otters float on their backs.")).isTrue();
        assertThat(text.place(4).orElseThrow().isElsewhere()).isTrue();
    }
}
