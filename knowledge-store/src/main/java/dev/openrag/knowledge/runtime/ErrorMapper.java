package dev.openrag.knowledge.runtime;

import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

import dev.openrag.knowledge.port.EngineUnavailableException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;

/** Every app's errors leave as {@code {"error": code, "message": text}}; never a stack trace. */
public class ErrorMapper {

    private static final Logger LOG = Logger.getLogger(ErrorMapper.class);

    public record ErrorBody(String error, String message) {
    }

    @ServerExceptionMapper
    public Response api(ApiException e) {
        return body(e.status(), e.code(), e.getMessage());
    }

    /** No key, or a wrong or revoked one (Quarkus would answer these with an empty body). */
    @ServerExceptionMapper({UnauthorizedException.class, AuthenticationFailedException.class})
    public Response unauthorized(RuntimeException e) {
        String message = e.getMessage() == null || e.getMessage().isBlank()
                ? "an API key is required: 'Authorization: Bearer <api key>'" : e.getMessage();
        return Response.fromResponse(body(401, "unauthorized", message)).header("WWW-Authenticate", "Bearer realm=\"openrag\"").build();
    }

    /** A key whose role does not allow the operation. */
    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return body(403, "forbidden", "this API key's role does not allow this operation");
    }

    @ServerExceptionMapper
    public Response json(JsonProcessingException e) {
        var location = e.getLocation();
        String where = location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
        return body(400, "invalid_json", "the request body is not valid JSON" + where + ": " + e.getOriginalMessage());
    }

    /** A field of the wrong type ({@code "k": "ten"}): Quarkus's own mapper for these answers with an empty body. */
    @ServerExceptionMapper
    public Response mismatched(MismatchedInputException e) {
        String field = e.getPath().stream()
                .map(reference -> reference.getFieldName() != null ? reference.getFieldName() : "[" + reference.getIndex() + "]")
                .collect(Collectors.joining("."));
        return body(400, "invalid_json", (field.isEmpty() ? "the request body" : "field '" + field + "'")
                + " has the wrong type: " + e.getOriginalMessage());
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, HttpHeaders headers) {
        if (e.getResponse().getStatus() == 413 && !e.getResponse().hasEntity() && e.getCause() == null) {
            return body(413, "too_large", tooLarge(headers));
        }
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof MismatchedInputException wrongType) {
                return mismatched(wrongType);
            }
            if (cause instanceof JsonProcessingException invalidJson) {
                return json(invalidJson); // Quarkus REST wraps body parsing errors in a 400
            }
        }
        int status = e.getResponse().getStatus();
        return body(status, switch (status) {
            case 400 -> "bad_request";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 413 -> "too_large";
            case 415 -> "unsupported_media_type";
            default -> "http_" + status;
        }, e.getMessage());
    }

    /**
     * What Quarkus' form parser refused with a bare 413: the whole body past {@code quarkus.http.limits.max-body-size}
     * (by its declared length), or else one part without a file name (a form field: an upload's {@code metadata} or
     * {@code collection}) past {@code quarkus.http.limits.max-form-attribute-size}; without a declared length, either.
     */
    private static String tooLarge(HttpHeaders headers) {
        var config = org.eclipse.microprofile.config.ConfigProvider.getConfig();
        long field = config.getOptionalValue(FORM_FIELD_LIMIT, io.quarkus.runtime.configuration.MemorySize.class)
                .map(size -> size.asLongValue()).orElse(2048L);
        java.util.Optional<Long> body = config.getOptionalValue(BODY_LIMIT, io.quarkus.runtime.configuration.MemorySize.class)
                .map(size -> size.asLongValue());
        long length = headers == null ? -1 : headers.getLength();
        String whole = "the request body is over " + body.map(String::valueOf).orElse("the") + " bytes it may take (" + BODY_LIMIT + ")";
        if (body.isPresent() && length > body.get()) {
            return whole;
        }
        String part = "a part without a file name (a form field: the upload's 'metadata' or 'collection') is over the " + field
                + " bytes a form field may take (" + FORM_FIELD_LIMIT + "); caller metadata takes at most "
                + dev.openrag.schemas.Metadata.maxTotalBytes() + " bytes as JSON (" + dev.openrag.schemas.Metadata.MAX_TOTAL_BYTES_PROPERTY
                + "), and files go in 'files' parts with a file name";
        return length < 0 && body.isPresent() ? part + "; or " + whole : part;
    }

    private static final String FORM_FIELD_LIMIT = "quarkus.http.limits.max-form-attribute-size";
    private static final String BODY_LIMIT = "quarkus.http.limits.max-body-size";

    /**
     * An engine that is down is a 503 naming it (the caller may retry when it is back); anything
     * else unexpected is a 500 whose body carries only a reference: the exception's message may
     * hold a store's query or internals, so it goes to the log under that reference instead.
     */
    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        var unavailable = EngineUnavailableException.of(e);
        if (unavailable.isPresent()) {
            String engine = unavailable.get().engine();
            LOG.warnf("%s unavailable: %s", engine, unavailable.get().getMessage());
            return body(503, "unavailable", engine + " is unavailable; try again when it is back");
        }
        String reference = UUID.randomUUID().toString();
        LOG.errorf(e, "unexpected error, reference %s", reference);
        return body(500, "internal", "internal error (reference " + reference + " in the server log)");
    }

    static Response body(int status, String code, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(new ErrorBody(code, message)).build();
    }
}
