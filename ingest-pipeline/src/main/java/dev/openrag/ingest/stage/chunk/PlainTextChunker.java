package dev.openrag.ingest.stage.chunk;

import java.util.List;

/** The recursive splitter over the whole text: prose without structure. */
final class PlainTextChunker implements Chunker {

    private final int size;
    private final int overlap;

    PlainTextChunker(int size, int overlap) {
        this.size = size;
        this.overlap = overlap;
    }

    @Override
    public List<TextRange> chunk(String text) {
        return RecursiveSplitter.pack(RecursiveSplitter.pieces(text, 0, text.length(), size, List.of()), size, overlap);
    }
}
