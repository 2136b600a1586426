package dev.openrag.ingest.stage.parse;

import dev.openrag.ingest.stage.RejectedDocument;

/** A document that cannot be turned into text; the message is the reason users see. */
public class ParseFailure extends RejectedDocument {

    public ParseFailure(String message) {
        super(message);
    }

    public ParseFailure(String message, Throwable cause) {
        super(message);
        initCause(cause);
    }
}
