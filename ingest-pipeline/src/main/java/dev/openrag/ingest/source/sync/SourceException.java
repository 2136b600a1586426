package dev.openrag.ingest.source.sync;

/** A source that cannot be read as a whole (missing, not a repository, unknown branch, unreachable): its run fails, changing nothing. */
public class SourceException extends RuntimeException {

    public SourceException(String message) {
        super(message);
    }

    public SourceException(String message, Throwable cause) {
        super(message, cause);
    }
}
