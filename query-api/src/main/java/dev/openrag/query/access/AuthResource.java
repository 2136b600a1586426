package dev.openrag.query.access;

import java.util.Set;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.openrag.knowledge.access.Grant;
import dev.openrag.knowledge.runtime.auth.Access;
import dev.openrag.knowledge.runtime.auth.Authenticator;
import io.smallrye.common.annotation.Blocking;

/**
 * {@code GET /api/auth}, open to anyone: whether keys are required and, for a caller that
 * presents one, what it grants (the web UI asks for a key, then checks it here). A wrong key is a 401.
 */
@Path("/api/auth")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class AuthResource {

    /** {@code caller} null: no key presented (or auth off). */
    public record AuthState(boolean enabled, Caller caller) {
    }

    public record Caller(String keyId, String role, Set<String> collections, Set<String> scopes) {
    }

    private final Authenticator authenticator;
    private final Access access;

    public AuthResource(Authenticator authenticator, Access access) {
        this.authenticator = authenticator;
        this.access = access;
    }

    @GET
    @Operation(summary = "Whether API keys are required, and what the presented key grants")
    public AuthState state() {
        if (!authenticator.enabled()) {
            return new AuthState(false, null);
        }
        Grant grant = access.grantIfAny();
        return new AuthState(true, grant == null ? null
                : new Caller(grant.keyId(), grant.role().id(), grant.collections(), grant.scopes()));
    }
}
