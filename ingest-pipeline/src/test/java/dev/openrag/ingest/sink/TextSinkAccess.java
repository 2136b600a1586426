package dev.openrag.ingest.sink;

import dev.openrag.knowledge.browse.DocumentText;
import dev.openrag.schemas.DocumentChunked;

/** Opens {@link TextSink#of} to tests of other packages. */
public final class TextSinkAccess {

    private TextSinkAccess() {
    }

    public static DocumentText of(DocumentChunked document) {
        return TextSink.of(document);
    }
}
