package dev.openrag.query.facet;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.port.MetadataFacets;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.auth.Access;
import dev.openrag.schemas.Metadata;
import io.smallrye.common.annotation.Blocking;

/**
 * {@code GET /api/facets}: what the documents of a collection hold under a metadata key (caller keys
 * and source fields alike), each value with how many documents have it, for filter chips; without
 * {@code field}, the keys the collection's documents have. Scoped like a search: a collection the
 * caller's key is not granted is a 403.
 */
@Path("/api/facets")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Role.READER)
public class FacetsResource {

    static final int DEFAULT_SIZE = 20;
    static final int MAX_SIZE = 100;
    static final int MAX_QUERY_CHARS = 1000;

    private final MetadataFacets facets;
    private final Access access;

    public FacetsResource(MetadataFacets facets, Access access) {
        this.facets = facets;
        this.access = access;
    }

    /**
     * The answer: {@code values} of {@code field} ({@code value}, {@code kind}: string, number or date,
     * {@code count}: documents), most documents first; or, without a field, {@code fields}.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Facets(String collection, String field, List<MetadataFacets.Value> values, List<String> fields) {
    }

    @GET
    @Operation(summary = "Values of a metadata field with how many documents have each (filter chips); without field, "
            + "the fields the collection's documents have")
    public Facets facets(@QueryParam("collection") @Parameter(description = "collection (default: default)") String collection,
                         @QueryParam("field") @Parameter(description = "a caller key or a source field (title, fileName, "
                                 + "extension, mediaType, path, sourceId, created, modified, author, url, host, commit, crawlId); "
                                 + "an invalid name is a 400, one no document has gives no values") String field,
                         @QueryParam("query") @Parameter(description = "count only documents whose chunks match this text") String query,
                         @QueryParam("size") @Parameter(description = "at most this many values, 1-100 (default 20)") Integer size) {
        String checked = access.collection(collection);
        if (field == null || field.isBlank()) {
            return new Facets(checked, null, null, List.copyOf(facets.keys(checked)));
        }
        try {
            Metadata.checkKey(field);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("parameter 'field': " + e.getMessage());
        }
        int n = size == null ? DEFAULT_SIZE : size;
        if (n < 1 || n > MAX_SIZE) {
            throw ApiException.badRequest("parameter 'size' must be between 1 and " + MAX_SIZE + ", got " + n);
        }
        if (query != null && query.length() > MAX_QUERY_CHARS) {
            throw ApiException.badRequest("parameter 'query' is longer than " + MAX_QUERY_CHARS + " characters");
        }
        return new Facets(checked, field, facets.values(checked, field, query, n), null);
    }
}
