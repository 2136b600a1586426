package dev.openrag.query.search;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.auth.Access;
import io.smallrye.common.annotation.Blocking;

/** {@code POST /api/search}. */
@Path("/api/search")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Blocking
public class SearchResource {

    private final SearchService search;
    private final Access access;
    private final CollectionSelection collections;

    public SearchResource(SearchService search, Access access, CollectionSelection collections) {
        this.search = search;
        this.access = access;
        this.collections = collections;
    }

    @POST
    @RolesAllowed(Role.READER)
    @Operation(summary = "Search a collection, or several ('collections': [...] or \"*\"): {query, k (1..100), collection, "
            + "mode: hybrid|vector|bm25|graph|summary|hybrid_expanded|automatic, filter, explain}")
    public SearchResponse search(SearchRequest request) {
        if (request == null) {
            throw ApiException.badRequest("missing JSON body {query, k, collection, mode, explain}");
        }
        return search.search(request.restrictedTo(collections.resolve(request.collection(), request.collections()),
                access.scopes(request.scopes())));
    }
}
