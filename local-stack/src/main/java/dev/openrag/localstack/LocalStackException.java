package dev.openrag.localstack;

/** A component could not start or stop; the message is meant for the user as it is. */
public class LocalStackException extends RuntimeException {

    public LocalStackException(String message) {
        super(message);
    }

    public LocalStackException(String message, Throwable cause) {
        super(message, cause);
    }
}
