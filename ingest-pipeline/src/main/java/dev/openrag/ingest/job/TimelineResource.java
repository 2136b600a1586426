package dev.openrag.ingest.job;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.auth.Access;

/** {@code GET /api/documents/{id}/timeline?collection=C}: where a document went, when, on which instance. */
@Path("/api/documents/{id}/timeline")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Role.READER)
public class TimelineResource {

    private final DocumentTimelines timelines;
    private final Access access;

    public TimelineResource(DocumentTimelines timelines, Access access) {
        this.timelines = timelines;
        this.access = access;
    }

    @GET
    @Operation(summary = "The document's way through the pipeline in its latest job: each stage with its instance, start, end,"
            + " attempts, wait and outcome, and the journey's trace id")
    public DocumentTimelines.Timeline timeline(@PathParam("id") String documentId, @QueryParam("collection") String collection) {
        String name = access.collection(collection);
        return timelines.of(name, documentId).orElseThrow(() -> ApiException.notFound("no timeline of document '" + documentId
                + "' in collection '" + name + "' (unknown, or ingested before timelines were kept)"));
    }
}
