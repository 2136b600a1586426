package dev.openrag.ingest.source.crawl;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The value a crawl's login types into one field: a literal string, or a field of a named credential
 * ({@code {"credential": "NAME", "field": "password"}}, see {@code /api/credentials}). Nothing in a
 * request is resolved against the server's environment, properties or files: {@code ${HOME}} is typed
 * as the seven characters it is.
 */
public record LoginValue(String literal, String credential, String field) {

    /** What status answers show for a literal value. */
    static final String HIDDEN = "***";

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static LoginValue of(String literal) {
        return new LoginValue(literal, null, null);
    }

    @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
    public static LoginValue ofCredential(@JsonProperty("credential") String credential, @JsonProperty("field") String field) {
        return new LoginValue(null, credential, field);
    }

    public boolean isCredential() {
        return literal == null;
    }

    /** A literal hidden; a credential reference as it is (it holds no secret). */
    LoginValue redacted() {
        return isCredential() ? this : of(HIDDEN);
    }

    @JsonValue
    Object json() {
        return isCredential() ? Map.of("credential", String.valueOf(credential), "field", String.valueOf(field)) : literal;
    }
}
