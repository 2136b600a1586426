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

    private static String engineOf(Throwable failure) {
        return EngineUnavailableException.of(failure).map(EngineUnavailableException::engine).orElse("none");
    }

    private static OpenSearchException openSearch(int status) {
        return new OpenSearchException(ErrorResponse.of(e -> e.status(status)
                .error(ErrorCause.of(c -> c.type("test").reason("status " + status)))));
    }
}
