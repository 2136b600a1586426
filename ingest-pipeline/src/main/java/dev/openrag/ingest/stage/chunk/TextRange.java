package dev.openrag.ingest.stage.chunk;

import java.util.List;

/** A piece of the document text [start, end) with the heading path it sits under. */
record TextRange(int start, int end, List<String> headingPath) {

    int length() {
        return end - start;
    }
}
