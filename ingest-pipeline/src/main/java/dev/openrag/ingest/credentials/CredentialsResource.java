package dev.openrag.ingest.credentials;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

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

import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.schemas.CollectionNames;
import io.smallrye.common.annotation.Blocking;

/**
 * {@code /api/credentials} (admin): named login values for crawls. A crawl's login field names one
 * ({@code {"credential": "NAME", "field": "password"}}) instead of holding the value; the values are
 * sealed at rest and no answer ever holds one.
 */
@Path("/api/credentials")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Role.ADMINISTRATOR)
public class CredentialsResource {

    /** {@code POST /api/credentials} body. */
    public record CredentialRequest(String name, List<String> collections, Map<String, String> values) {
    }

    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    static final int MAX_FIELDS = 20;
    static final int MAX_VALUE_CHARS = 4096;

    private final CredentialStore credentials;

    public CredentialsResource(CredentialStore credentials) {
        this.credentials = credentials;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a credential {name, collections, values: {field: value}}; 201 with its name, collections and fields")
    public Response create(CredentialRequest request) {
        if (request == null) {
            throw ApiException.badRequest("missing JSON body {name, collections, values}");
        }
        String name = request.name();
        if (name == null || !NAME.matcher(name).matches()) {
            throw ApiException.badRequest("field 'name' must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        if (request.collections() == null || request.collections().isEmpty()) {
            throw ApiException.badRequest("field 'collections' must list the collections whose crawls may use it ('*': all)");
        }
        for (String collection : request.collections()) {
            if (!"*".equals(collection)) {
                try {
                    CollectionNames.orDefault(collection);
                } catch (IllegalArgumentException e) {
                    throw ApiException.badRequest("field 'collections': " + e.getMessage());
                }
            }
        }
        Map<String, String> values = request.values();
        if (values == null || values.isEmpty() || values.size() > MAX_FIELDS) {
            throw ApiException.badRequest("field 'values' must map 1 to " + MAX_FIELDS + " field names to values");
        }
        values.forEach((field, value) -> {
            if (field == null || !NAME.matcher(field).matches()) {
                throw ApiException.badRequest("field names in 'values' must be 1-64 letters, digits, '.', '_' or '-'");
            }
            if (value == null || value.length() > MAX_VALUE_CHARS) {
                throw ApiException.badRequest("the value of '" + field + "' must be a string of at most " + MAX_VALUE_CHARS + " characters");
            }
        });
        List<String> collections = request.collections().stream().map(c -> "*".equals(c) ? c : CollectionNames.orDefault(c)).distinct().toList();
        boolean created;
        try {
            created = credentials.create(name, collections, values);
        } catch (SecretBox.SealException e) {
            throw new ApiException(503, "secrets_unavailable", e.getMessage());
        }
        if (!created) {
            throw new ApiException(409, "conflict", "credential '" + name + "' exists: delete it first to replace it");
        }
        return Response.status(201).entity(credentials.get(name).orElseThrow()).build();
    }

    @GET
    @Operation(summary = "Every credential: name, collections, field names (never a value)")
    public Map<String, List<Credential>> list() {
        return Map.of("credentials", credentials.list());
    }

    @GET
    @Path("/{name}")
    @Operation(summary = "One credential: name, collections, field names (never a value)")
    public Credential get(@PathParam("name") String name) {
        return credentials.get(name).orElseThrow(() -> ApiException.notFound("no credential '" + name + "'"));
    }

    @DELETE
    @Path("/{name}")
    @Operation(summary = "Delete a credential: crawls that name it fail to log in, with the reason")
    public Response delete(@PathParam("name") String name) {
        if (!credentials.delete(name)) {
            throw ApiException.notFound("no credential '" + name + "'");
        }
        return Response.noContent().build();
    }
}
