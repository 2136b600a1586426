package dev.openrag.ingest.stage;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.Optional;

import dev.openrag.knowledge.port.EngineUnavailableException;

/**
 * Tells an engine outage from a document's failure, on the ingest side: the stores' and the
 * broker's outages ({@link EngineUnavailableException#of}), and a model server (Ollama) that
 * cannot be connected to or timed out.
 */
public final class Outages {

    public static final String MODEL_SERVER = "model server";

    private Outages() {
    }

    public static Optional<EngineUnavailableException> of(Throwable failure) {
        var store = EngineUnavailableException.of(failure);
        if (store.isPresent()) {
            return store;
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof ConnectException || cause instanceof NoRouteToHostException
                    || cause instanceof SocketTimeoutException || cause instanceof HttpTimeoutException) {
                return Optional.of(new EngineUnavailableException(MODEL_SERVER, "cannot reach a model server: " + cause, cause));
            }
        }
        return Optional.empty();
    }
}
