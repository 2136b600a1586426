package dev.openrag.knowledge.port;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;
import org.neo4j.driver.exceptions.ClientException;
import org.neo4j.driver.exceptions.ServiceUnavailableException;
import org.neo4j.driver.exceptions.SessionExpiredException;
import org.opensearch.client.opensearch._types.ErrorCause;
import org.opensearch.client.opensearch._types.ErrorResponse;
import org.opensearch.client.opensearch._types.OpenSearchException;

import io.grpc.Status;

/** Outages are told from a document's or a caller's own failure by the clients' real exception types. */
class EngineUnavailableExceptionTest {

    @Test
    void outagesNameTheirEngineEvenWhenWrapped() {
        assertThat(engineOf(new ServiceUnavailableException("Unable to connect to 127.0.0.1:7687"))).isEqualTo("neo4j");
        assertThat(engineOf(new CompletionException(new SessionExpiredException("server went away")))).isEqualTo("neo4j");
        assertThat(engineOf(openSearch(503))).isEqualTo("opensearch");
        assertThat(engineOf(openSearch(429))).isEqualTo("opensearch");
        assertThat(engineOf(new RuntimeException(Status.UNAVAILABLE.asRuntimeException()))).isEqualTo("qdrant");
        assertThat(engineOf(new IllegalStateException("Retries exhausted",
                new org.apache.kafka.common.errors.TimeoutException("Topic not present in metadata after 30000 ms")))).isEqualTo("kafka");
        assertThat(engineOf(new EngineUnavailableException("opensearch", "OpenSearch unreachable while indexing", null))).isEqualTo("opensearch");
    }

    @Test
    void aDocumentsOrCallersOwnFailureIsNoOutage() {
        assertThat(EngineUnavailableException.of(new ClientException("Neo.ClientError.Statement.SyntaxError", "LIMIT: Invalid input"))).isEmpty();
        assertThat(EngineUnavailableException.of(openSearch(400))).isEmpty();
        assertThat(EngineUnavailableException.of(new RuntimeException(Status.INVALID_ARGUMENT.asRuntimeException()))).isEmpty();
        assertThat(EngineUnavailableException.of(new org.apache.kafka.common.errors.RecordTooLargeException("too large"))).isEmpty();
        assertThat(EngineUnavailableException.of(new UncheckedIOException(new java.io.IOException("corrupt zip")))).isEmpty();
        assertThat(EngineUnavailableException.of(new NullPointerException())).isEmpty();
    }

    /**
     * Issue 68: an engine that answers but refuses every write is an outage with its reason, told by
     * status, error type or code: a block is 403 or 429 by OpenSearch version, a Neo4j transient error
     * (database unavailable, out of memory) or a read-only database, whatever language the message is in.
     */
    @Test
    void writeRefusalsAreOutagesNamedByTheEnginesErrorNotItsWording() {
        assertThat(reasonOf(openSearch(403, "cluster_block_exception", "index [c] blocked by: [FORBIDDEN/12/index read-only / allow delete (api)]")))
                .isEqualTo("opensearch refuses writes (cluster_block_exception, 403)");
        assertThat(reasonOf(openSearch(429, "cluster_block_exception", "index [c] blocked by: [TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark]")))
                .isEqualTo("opensearch refuses writes (cluster_block_exception, 429)");
        assertThat(reasonOf(openSearch(429, "rejected_execution_exception", "Warteschlange voll"))) // the wording does not matter
                .isEqualTo("opensearch refuses writes (rejected_execution_exception, 429)");
        assertThat(reasonOf(openSearch(503, "unavailable_shards_exception", "primary shard is not active"))).isEqualTo("opensearch unreachable");
        assertThat(reasonOf(new org.neo4j.driver.exceptions.TransientException("Neo.TransientError.General.DatabaseUnavailable",
                "La base de données n'est pas disponible"))).isEqualTo("neo4j refuses writes (Neo.TransientError.General.DatabaseUnavailable)");
        assertThat(reasonOf(new CompletionException(new ClientException("Neo.ClientError.General.ForbiddenOnReadOnlyDatabase", "nope"))))
                .isEqualTo("neo4j refuses writes (Neo.ClientError.General.ForbiddenOnReadOnlyDatabase)");
        assertThat(reasonOf(new ServiceUnavailableException("Unable to connect"))).isEqualTo("neo4j unreachable");
        assertThat(reasonOf(new EngineUnavailableException("opensearch", "OpenSearch unreachable while indexing", null)))
                .isEqualTo("opensearch unreachable");
    }

    /** The controls: a 403 that is no block (a security refusal), errors whose words speak of read-only or full disks but whose type does not. */
    @Test
    void refusalsOfOneRequestOrOfTheCallerAreNoOutageWhateverTheirWords() {
        assertThat(EngineUnavailableException.of(openSearch(403, "security_exception", "no permissions for [indices:data/write/bulk]"))).isEmpty();
        assertThat(EngineUnavailableException.of(openSearch(400, "mapper_parsing_exception", "index read-only / allow delete, disk full"))).isEmpty();
        assertThat(EngineUnavailableException.of(openSearch(403, "authorization_exception", "cluster_block_exception"))).isEmpty();
        assertThat(EngineUnavailableException.of(new ClientException("Neo.ClientError.Schema.ConstraintValidationFailed",
                "database unavailable, read only"))).isEmpty();
        assertThat(EngineUnavailableException.isOpenSearchOutage(404, "document_missing_exception")).isFalse();
        assertThat(EngineUnavailableException.isOpenSearchOutage(403, "cluster_block_exception")).isTrue();
    }

    /**
     * A Neo4j database error is the server's failure (a commit on a full disk, a panicked database),
     * the Neo4j side of the disk that fills up: an outage with its code, as OpenSearch's 5xx is, so that
     * the stage waits and a probe write decides whether only this document fails. The control: the
     * client errors of one statement or document stay none.
     */
    @Test
    void aNeo4jDatabaseErrorIsAnOutageNamedByItsCodeAndAClientErrorIsNot() {
        assertThat(reasonOf(new CompletionException(new org.neo4j.driver.exceptions.DatabaseException(
                "Neo.DatabaseError.Transaction.TransactionCommitFailed", "Could not apply the transaction: No space left on device"))))
                .isEqualTo("neo4j refuses writes (Neo.DatabaseError.Transaction.TransactionCommitFailed)");
        assertThat(reasonOf(new ClientException("Neo.ClientError.Schema.ConstraintValidationFailed", "already exists"))).isEqualTo("none");
        assertThat(reasonOf(new ClientException("Neo.ClientError.Statement.TypeError", "disk full"))).isEqualTo("none");
    }

    /**
     * Issue 68's "write rejections under load": a full write queue (429 rejected_execution) or a block
     * refuses every write by its type, so a tiny probe write that slips through between rejections must
     * not make the refused document poison. The controls: a breaker's 429 (one document's oversized
     * bulk, issue 60's poison document), a 5xx and a Neo4j out-of-memory transient error may be one
     * document's, and a probe write decides.
     */
    @Test
    void aFullWriteQueueOrABlockRefusesEveryWriteByItsTypeWhileABreakerOrA5xxMayBeOneDocuments() {
        assertThat(everyWrite(openSearch(429, "rejected_execution_exception", "rejected execution of coordinating operation"))).isTrue();
        assertThat(everyWrite(openSearch(429, "cluster_block_exception", "flood-stage watermark"))).isTrue();
        assertThat(everyWrite(openSearch(403, "cluster_block_exception", "index read-only"))).isTrue();
        assertThat(everyWrite(new org.neo4j.driver.exceptions.TransientException("Neo.TransientError.General.DatabaseUnavailable", "x")))
                .isTrue();
        assertThat(everyWrite(new ClientException("Neo.ClientError.General.ForbiddenOnReadOnlyDatabase", "x"))).isTrue();

        assertThat(everyWrite(openSearch(429, "circuit_breaking_exception", "[in_flight_requests] Data too large"))).isFalse();
        assertThat(everyWrite(openSearch(503, "unavailable_shards_exception", "primary shard is not active"))).isFalse();
        assertThat(everyWrite(new org.neo4j.driver.exceptions.TransientException("Neo.TransientError.General.MemoryPoolOutOfMemoryError",
                "x"))).isFalse();
        assertThat(everyWrite(new ServiceUnavailableException("Unable to connect"))).isFalse();
    }

    private static boolean everyWrite(Throwable failure) {
        return EngineUnavailableException.of(failure).orElseThrow().refusesEveryWrite();
    }

    private static String reasonOf(Throwable failure) {
        return EngineUnavailableException.of(failure).map(e -> e.engine() + " " + e.reason()).orElse("none");
    }

    private static OpenSearchException openSearch(int status, String type, String reason) {
        return new OpenSearchException(ErrorResponse.of(e -> e.status(status)
                .error(ErrorCause.of(c -> c.type(type).reason(reason)))));
    }

    private static String engineOf(Throwable failure) {
        return EngineUnavailableException.of(failure).map(EngineUnavailableException::engine).orElse("none");
    }

    private static OpenSearchException openSearch(int status) {
        return new OpenSearchException(ErrorResponse.of(e -> e.status(status)
                .error(ErrorCause.of(c -> c.type("test").reason("status " + status)))));
    }
}
