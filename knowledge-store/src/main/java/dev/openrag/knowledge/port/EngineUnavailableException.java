package dev.openrag.knowledge.port;

import java.util.Optional;

import org.neo4j.driver.exceptions.ClientException;
import org.neo4j.driver.exceptions.DatabaseException;
import org.neo4j.driver.exceptions.Neo4jException;
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
 *
 * <p>An engine that answers but refuses writes (an OpenSearch 429, a read-only block such as the
 * flood-stage watermark's; a Neo4j transient or database-unavailable error, a read-only database)
 * is an outage too: it refuses every document alike. It is told by the engine's status, error type
 * or code, never by the wording of its message, and {@link #reason()} says so.
 */
public class EngineUnavailableException extends RuntimeException {

    public static final String NEO4J = "neo4j";
    public static final String OPENSEARCH = "opensearch";
    public static final String QDRANT = "qdrant";
    public static final String KAFKA = "kafka";

    /** The reason of an engine that could not be reached or failed: {@value}. */
    public static final String UNREACHABLE = "unreachable";

    /** OpenSearch's error type for an index or cluster block (read-only, flood-stage watermark, write block). */
    static final String OPENSEARCH_BLOCK = "cluster_block_exception";
    /** Neo4j's codes for a database that refuses writes because it is read-only. */
    private static final java.util.Set<String> NEO4J_READ_ONLY = java.util.Set.of(
            "Neo.ClientError.General.ForbiddenOnReadOnlyDatabase", "Neo.ClientError.Cluster.NotALeader",
            "Neo.ClientError.General.WriteOnReadOnlyAccessDatabase");

    /**
     * Refusals whose type is the engine's state, whatever the write: a block, a full write queue, a
     * read-only or unavailable database. A probe write that goes through a moment later does not make
     * the refused document poison (a queue full under load empties for a tiny probe first); unlike a
     * breaker's 429 or a 5xx, which one large or odd document can cause.
     */
    private static final java.util.Set<String> ENGINE_STATES = java.util.Set.of(OPENSEARCH_BLOCK, "rejected_execution_exception",
            "es_rejected_execution_exception", "Neo.TransientError.General.DatabaseUnavailable",
            "Neo.TransientError.Database.DatabaseUnavailable", "Neo.ClientError.General.ForbiddenOnReadOnlyDatabase",
            "Neo.ClientError.Cluster.NotALeader", "Neo.ClientError.General.WriteOnReadOnlyAccessDatabase");

    private final String engine;
    private final String reason;
    private final boolean everyWrite;

    public EngineUnavailableException(String engine, String message, Throwable cause) {
        this(engine, UNREACHABLE, message, cause);
    }

    /**
     * @param reason what the engine does, short and free of document content, for readiness and
     *               jobs: {@value #UNREACHABLE}, {@code refuses writes (cluster_block_exception, 403)}, ...
     */
    public EngineUnavailableException(String engine, String reason, String message, Throwable cause) {
        this(engine, reason, false, message, cause);
    }

    private EngineUnavailableException(String engine, String reason, boolean everyWrite, String message, Throwable cause) {
        super(message, cause);
        this.engine = engine;
        this.reason = reason;
        this.everyWrite = everyWrite;
    }

    /** An engine that answered {@code status} with error {@code type} (or code) to a write it refused. */
    public static EngineUnavailableException refusingWrites(String engine, String type, int status, String message, Throwable cause) {
        return new EngineUnavailableException(engine, "refuses writes (" + type + (status > 0 ? ", " + status : "") + ")",
                ENGINE_STATES.contains(type), message, cause);
    }

    /** Whether an error of this type is the engine's state (a block, a full write queue, a read-only database). */
    public static boolean isEngineState(String type) {
        return type != null && ENGINE_STATES.contains(type);
    }

    /**
     * Whether the refusal's type is the engine's state rather than anything a document can cause (a
     * block, a full write queue, a read-only or unavailable database): a stage then waits however many
     * times the document was refused, and a probe write that goes through does not make it poison.
     */
    public boolean refusesEveryWrite() {
        return everyWrite;
    }

    /**
     * Whether OpenSearch's answer {@code status} with error {@code type} to a write is its state
     * rather than the document's: 429 (rejected execution, a breaker, a flood-stage block), a block
     * (read-only index or cluster, 403 or 429 by version), or 5xx (a shard not started yet).
     */
    public static boolean isOpenSearchOutage(int status, String type) {
        return status == 429 || status >= 500 || (status == 403 && OPENSEARCH_BLOCK.equals(type));
    }

    /** {@link #isOpenSearchOutage} as an exception naming the reason. */
    public static EngineUnavailableException openSearch(int status, String type, String message, Throwable cause) {
        return status >= 500 ? new EngineUnavailableException(OPENSEARCH, UNREACHABLE, message, cause)
                : refusingWrites(OPENSEARCH, type == null ? "unknown" : type, status, message, cause);
    }

    /** What the engine does: {@value #UNREACHABLE} or {@code refuses writes (TYPE, STATUS)}. */
    public String reason() {
        return reason;
    }

    /** The engine's name as users know it: {@code neo4j}, {@code opensearch}, {@code qdrant}, {@code kafka}, ... */
    public String engine() {
        return engine;
    }

    /**
     * The unavailable engine behind a failure, if the failure (or one of its causes) is one: an
     * {@link EngineUnavailableException}, a Neo4j driver error the driver itself calls retryable
     * (service unavailable, session expired, transient), a Neo4j database error (the server's own failure,
     * such as a commit on a full disk; told from a document's failure by a probe write), an OpenSearch answer 429 or 5xx, a Qdrant
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
                // transient (database unavailable, out of memory, a lock) answers with a code; a lost connection has none
                String code = cause instanceof Neo4jException coded ? coded.code() : null;
                return Optional.of(code != null && code.startsWith("Neo.TransientError.")
                        ? refusingWrites(NEO4J, code, 0, "Neo4j refused: " + cause.getMessage(), cause)
                        : new EngineUnavailableException(NEO4J, "Neo4j unavailable: " + cause.getMessage(), cause));
            }
            if (cause instanceof DatabaseException failed) {
                // Neo.DatabaseError.*: the server failed, not the statement (a commit on a full disk, a
                // panicked database); like OpenSearch's 5xx, an outage until a probe write goes through
                return Optional.of(refusingWrites(NEO4J, failed.code() == null ? "Neo.DatabaseError" : failed.code(), 0,
                        "Neo4j failed: " + cause.getMessage(), cause));
            }
            if (cause instanceof ClientException refused && NEO4J_READ_ONLY.contains(refused.code())) {
                return Optional.of(refusingWrites(NEO4J, refused.code(), 0, "Neo4j refused a write: " + cause.getMessage(), cause));
            }
            if (cause instanceof OpenSearchException answer && isOpenSearchOutage(answer.status(), typeOf(answer))) {
                return Optional.of(openSearch(answer.status(), typeOf(answer),
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

    private static String typeOf(OpenSearchException answer) {
        return answer.error() == null ? null : answer.error().type();
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
