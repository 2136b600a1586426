package dev.openrag.ingest.stage.chunk;

import java.util.List;

/** Cuts a document's text into chunk ranges. Implementations are pure functions of the text. */
interface Chunker {

    List<TextRange> chunk(String text);
}
