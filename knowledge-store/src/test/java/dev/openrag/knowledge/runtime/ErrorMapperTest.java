package dev.openrag.knowledge.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.core.Response;

import org.junit.jupiter.api.Test;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;

/** Error bodies carry a code and a message for people: a 500 only a reference, never internals. */
class ErrorMapperTest {

    private final ErrorMapper mapper = new ErrorMapper();

    @Test
    void a500CarriesAReferenceAndNoInternals() {
        Response response = mapper.unexpected(new IllegalStateException(
                "ClientException: LIMIT: Invalid input. '-294967296' is not a valid value (MATCH (d:Document) ...)"));
        assertThat(response.getStatus()).isEqualTo(500);
        ErrorMapper.ErrorBody body = (ErrorMapper.ErrorBody) response.getEntity();
        assertThat(body.error()).isEqualTo("internal");
        assertThat(body.message()).containsPattern("reference [0-9a-f-]{36} in the server log")
                .doesNotContain("ClientException").doesNotContain("IllegalStateException").doesNotContain("LIMIT")
                .doesNotContain("MATCH").doesNotContain("294967296");
    }

    @Test
    void keyRefusalsAreJson401And403() {
        Response unauthorized = mapper.unauthorized(new AuthenticationFailedException("unknown or revoked API key"));
        assertThat(unauthorized.getStatus()).isEqualTo(401);
        assertThat(unauthorized.getHeaderString("WWW-Authenticate")).startsWith("Bearer");
        assertThat(((ErrorMapper.ErrorBody) unauthorized.getEntity()).message()).isEqualTo("unknown or revoked API key");
        Response forbidden = mapper.forbidden(new ForbiddenException());
        assertThat(forbidden.getStatus()).isEqualTo(403);
        assertThat(((ErrorMapper.ErrorBody) forbidden.getEntity()).error()).isEqualTo("forbidden");
    }
}
