package dev.openrag.knowledge.port;

import java.util.Optional;

import org.neo4j.driver.exceptions.RetryableException;
import org.opensearch.client.opensearch._types.OpenSearchException;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;

/**
 * An engine (a store, the broker, a model server) could not be reached, timed out or answered
 * that it is overloaded or failing. That is never the document's or the caller's fault: the
 * pipeline waits and retries, the read side answers 503 naming the engine.
 *
 * <p>Adapters throw it where they wrap their client's I/O errors; {@link #of(Throwable)} also
 * recognises the clients' own exceptions, so a call site need not translate each of them.
 */
public class EngineUnavailableException extends RuntimeException {

    public static final String NEO4J = "neo4j";
    public static final String OPENSEARCH = "opensearch";
    public static final String QDRANT = "qdrant";
    public static final String KAFKA = "kafka";

    private final String engine;

    public EngineUnavailableException(String engine, String message, Throwable cause) {
        super(message, cause);
        this.engine = engine;
    }

    /** The engine's name as users know it: {@code neo4j}, {@code opensearch}, {@code qdrant}, {@code kafka}, ... */
    public String engine() {
        return engine;
    }

    /**
     * The unavailable engine behind a failure, if the failure (or one of its causes) is one: an
     * {@link EngineUnavailableException}, a Neo4j driver error the driver itself calls retryable
     * (service unavailable, session expired, transient), an OpenSearch answer 429 or 5xx, a Qdrant
     * gRPC UNAVAILABLE / DEADLINE_EXCEEDED / RESOURCE_EXHAUSTED, Kafka's retriable errors (timeouts,
     * no leader, not enough replicas). Anything else (a constraint
     * violation, a mapping error, a bug) is not an outage and yields empty.
     */
    public static Optional<EngineUnavailableException> of(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof EngineUnavailableException unavailable) {
                return Optional.of(unavailable);
            }
            if (cause instanceof RetryableException) {
                return Optional.of(new EngineUnavailableException(NEO4J, "Neo4j unavailable: " + cause.getMessage(), cause));
            }
            if (cause instanceof OpenSearchException answer && (answer.status() == 429 || answer.status() >= 500)) {
                return Optional.of(new EngineUnavailableException(OPENSEARCH,
                        "OpenSearch answered " + answer.status() + ": " + answer.getMessage(), cause));
            }
            if (isA(cause, "org.apache.kafka.common.errors.RetriableException")) {
                return Optional.of(new EngineUnavailableException(KAFKA, "Kafka unavailable: " + cause.getMessage(), cause));
            }
            if (cause instanceof StatusRuntimeException grpc && isOutage(grpc.getStatus().getCode())) {
                return Optional.of(new EngineUnavailableException(QDRANT, "Qdrant unavailable: " + grpc.getStatus(), cause));
            }
        }
        return Optional.empty();
    }

    /** By name: the stores' module has no Kafka client; the apps that talk to Kafka do. */
    private static boolean isA(Throwable failure, String className) {
        for (Class<?> type = failure.getClass(); type != null; type = type.getSuperclass()) {
            if (type.getName().equals(className)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isOutage(Status.Code code) {
        return code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED || code == Status.Code.RESOURCE_EXHAUSTED;
    }
}
