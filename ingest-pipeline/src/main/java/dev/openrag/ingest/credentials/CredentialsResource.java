package dev.openrag.ingest.credentials;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
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
 * sealed at rest and no answer ever holds one. Each credential names the {@code sites} (origins) its
 * values may be typed into; the crawler types them nowhere else ({@code CrawlService}, {@code BrowserSession}).
 */
@Path("/api/credentials")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Role.ADMINISTRATOR)
public class CredentialsResource {

    /** {@code POST /api/credentials} body. */
    public record CredentialRequest(String name, List<String> collections, List<String> sites, Map<String, String> values) {
    }

    /** {@code PATCH /api/credentials/{name}} body: what is given replaces what is stored. */
    public record CredentialUpdate(List<String> sites, List<String> collections) {
    }

    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    static final int MAX_FIELDS = 20;
    static final int MAX_VALUE_CHARS = 4096;
    static final int MAX_SITES = 20;

    private final CredentialStore credentials;

    public CredentialsResource(CredentialStore credentials) {
        this.credentials = credentials;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a credential {name, collections, sites, values: {field: value}}; 201 with its name, collections,"
            + " sites and fields")
    public Response create(CredentialRequest request) {
        if (request == null) {
            throw ApiException.badRequest("missing JSON body {name, collections, sites, values}");
        }
        String name = request.name();
        if (name == null || !NAME.matcher(name).matches()) {
            throw ApiException.badRequest("field 'name' must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        List<String> collections = collections(request.collections());
        List<String> sites = sites(request.sites());
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
        boolean created;
        try {
            created = credentials.create(name, collections, sites, values);
        } catch (SecretBox.SealException e) {
            throw new ApiException(503, "secrets_unavailable", e.getMessage());
        }
        if (!created) {
            throw new ApiException(409, "conflict", "credential '" + name + "' exists: delete it first to replace it");
        }
        return Response.status(201).entity(credentials.get(name).orElseThrow()).build();
    }

    @GET
    @Operation(summary = "Every credential: name, collections, sites, field names, state (never a value)")
    public Map<String, List<Credential>> list() {
        return Map.of("credentials", credentials.list());
    }

    @GET
    @Path("/{name}")
    @Operation(summary = "One credential: name, collections, sites, field names, state (never a value)")
    public Credential get(@PathParam("name") String name) {
        return credentials.get(name).orElseThrow(() -> ApiException.notFound("no credential '" + name + "'"));
    }

    @PATCH
    @Path("/{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Replace a credential's sites and/or collections {sites, collections}; its values stay as they are")
    public Credential update(@PathParam("name") String name, CredentialUpdate update) {
        if (update == null || update.sites() == null && update.collections() == null) {
            throw ApiException.badRequest("give 'sites' and/or 'collections' to replace");
        }
        List<String> sites = update.sites() == null ? null : sites(update.sites());
        List<String> collections = update.collections() == null ? null : collections(update.collections());
        return credentials.update(name, sites, collections).orElseThrow(() -> ApiException.notFound("no credential '" + name + "'"));
    }

    /** The collections whose crawls may use a credential, checked and normalised ('*': all). */
    private static List<String> collections(List<String> requested) {
        if (requested == null || requested.isEmpty()) {
            throw ApiException.badRequest("field 'collections' must list the collections whose crawls may use it ('*': all)");
        }
        try {
            return requested.stream().map(c -> "*".equals(c) ? c : CollectionNames.orDefault(c)).distinct().toList();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw ApiException.badRequest("field 'collections': " + e.getMessage());
        }
    }

    /** The origins a credential may be typed into, normalised ({@link SiteOrigin#site}); at least one. */
    private static List<String> sites(List<String> requested) {
        if (requested == null || requested.isEmpty() || requested.size() > MAX_SITES) {
            throw ApiException.badRequest("field 'sites' must list 1 to " + MAX_SITES + " origins its values may be typed into,"
                    + " such as https://intranet.example.com or http://wiki.local:8080");
        }
        try {
            return requested.stream().map(site -> SiteOrigin.site(site).toString()).distinct().toList();
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("field 'sites': " + e.getMessage());
        }
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
