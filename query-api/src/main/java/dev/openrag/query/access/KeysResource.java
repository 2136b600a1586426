package dev.openrag.query.access;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.UnaryOperator;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.logging.Logger;

import dev.openrag.knowledge.access.ApiKey;
import dev.openrag.knowledge.access.Grant;
import dev.openrag.knowledge.access.KeySecrets;
import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.access.Scopes;
import dev.openrag.knowledge.port.KeyStore;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.schemas.CollectionNames;
import io.smallrye.common.annotation.Blocking;

/**
 * {@code /api/keys} (admin): create a key (its secret is shown once, in the answer, and stored
 * only as a hash), list keys (never a secret), revoke one (it stops working at the next request,
 * in every app: they all read the same Neo4j).
 */
@Path("/api/keys")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Role.ADMINISTRATOR)
public class KeysResource {

    private static final Logger LOG = Logger.getLogger(KeysResource.class);
    private static final int MAX_GRANTS = 100;

    /** {@code POST /api/keys} body; {@code collections} and {@code scopes} may hold {@code "*"}. */
    public record NewKey(String name, String role, List<String> collections, List<String> scopes) {
    }

    /** The answer to a create: the key as listed, and its secret (the only time it is shown). */
    public record CreatedKey(ApiKey key, String secret) {
    }

    public record Keys(List<ApiKey> keys) {
    }

    private final KeyStore keys;

    public KeysResource(KeyStore keys) {
        this.keys = keys;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create an API key {name, role: read|write|admin, collections: [..|*], scopes: [..|*]}; the secret is shown once")
    public Response create(NewKey request) {
        if (request == null) {
            throw ApiException.badRequest("a JSON body {name, role, collections, scopes} is required");
        }
        String name = request.name() == null ? "" : request.name().strip();
        if (name.isEmpty() || name.length() > 100) {
            throw ApiException.badRequest("'name' is required and must have 1 to 100 characters");
        }
        Role role;
        try {
            role = Role.of(request.role());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        ApiKey key = new ApiKey(UUID.randomUUID().toString(), name, role,
                names(request.collections(), "collections", CollectionNames::orDefault),
                names(request.scopes(), "scopes", Scopes::check), Instant.now(), null);
        String secret = KeySecrets.newSecret();
        keys.create(key, KeySecrets.hash(secret));
        LOG.infof("API key %s ('%s', %s) created", key.id(), name, role.id());
        return Response.status(201).entity(new CreatedKey(key, secret)).build();
    }

    @GET
    @Operation(summary = "Every API key, newest first: what each grants, never its secret")
    public Keys list() {
        return new Keys(keys.list());
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Revoke an API key: it stops working at once in every app")
    public Response revoke(@PathParam("id") String id) {
        if (!keys.revoke(id)) {
            throw ApiException.notFound("no API key '" + id + "'");
        }
        LOG.infof("API key %s revoked", id);
        return Response.noContent().build();
    }

    private static Set<String> names(List<String> values, String field, UnaryOperator<String> check) {
        if (values == null) {
            return Set.of();
        }
        if (values.size() > MAX_GRANTS) {
            throw ApiException.badRequest("'" + field + "' may list at most " + MAX_GRANTS + " names");
        }
        for (String value : values) {
            if (value == null || value.isBlank()) {
                throw ApiException.badRequest("'" + field + "' must not hold empty names");
            }
            if (!Grant.ANY.equals(value)) {
                try {
                    check.apply(value);
                } catch (IllegalArgumentException e) {
                    throw ApiException.badRequest("'" + field + "': " + e.getMessage());
                }
            }
        }
        return Set.copyOf(values);
    }
}
