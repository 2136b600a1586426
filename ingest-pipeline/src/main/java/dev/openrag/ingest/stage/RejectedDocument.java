package dev.openrag.ingest.stage;

/** Content a stage refuses for good (retrying cannot help); goes straight to the dead-letter topic. */
public class RejectedDocument extends RuntimeException {

    public RejectedDocument(String message) {
        super(message);
    }
}
