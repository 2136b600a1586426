package dev.openrag.query.search;

import java.util.Map;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.FeedbackStore;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.auth.Access;
import io.smallrye.common.annotation.Blocking;

/** {@code POST /api/feedback}: was this result helpful for this query? Later similar searches take it into account. */
@Path("/api/feedback")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Blocking
public class FeedbackResource {

    /** The body: the query, the result's chunkId, the verdict and an optional comment. */
    public record Feedback(String query, String chunkId, Boolean helpful, String comment) {
    }

    private final FeedbackStore store;
    private final Embedder embedder;
    private final Access access;

    public FeedbackResource(FeedbackStore store, Embedder embedder, Access access) {
        this.store = store;
        this.embedder = embedder;
        this.access = access;
    }

    @POST
    @RolesAllowed(Role.WRITER)
    @Operation(summary = "Record whether a result helped {query, chunkId, helpful, comment?}")
    public Response record(Feedback feedback) {
        if (feedback == null || feedback.query() == null || feedback.query().isBlank()) {
            throw ApiException.badRequest("field 'query' is required and must not be blank");
        }
        if (feedback.chunkId() == null || feedback.chunkId().isBlank()) {
            throw ApiException.badRequest("field 'chunkId' is required (a search result's chunkId)");
        }
        if (feedback.helpful() == null) {
            throw ApiException.badRequest("field 'helpful' is required: true or false");
        }
        if (feedback.comment() != null && feedback.comment().length() > 4000) {
            throw ApiException.badRequest("field 'comment' has " + feedback.comment().length() + " characters, the limit is 4000");
        }
        // chunk ids are collection/documentId#index: the key must be granted the chunk's collection
        int slash = feedback.chunkId().indexOf('/');
        if (slash <= 0) {
            throw ApiException.notFound("no chunk '" + feedback.chunkId() + "'");
        }
        String collection = access.collection(feedback.chunkId().substring(0, slash));
        String id = UUID.randomUUID().toString();
        if (!store.add(id, collection, feedback.chunkId(), feedback.query().strip(), feedback.helpful(), feedback.comment(),
                embedder.embedQuery(feedback.query().strip()), System.currentTimeMillis())) {
            throw ApiException.notFound("no chunk '" + feedback.chunkId() + "'");
        }
        return Response.status(201).entity(Map.of("id", id)).build();
    }
}
