package dev.openrag.ingest.source.sync;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.auth.Access;
import io.smallrye.common.annotation.Blocking;

/**
 * {@code /api/sources}: folders and git repositories a collection is kept equal to (issue 62). Creating, running and
 * deleting need the write role, and every call the grant of the source's collection.
 */
@Path("/api/sources")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
@RolesAllowed(Role.READER)
public class SourcesResource {

    private final SyncService sync;
    private final Access access;

    public SourcesResource(SyncService sync, Access access) {
        this.sync = sync;
        this.access = access;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Keep a collection equal to a folder or git repository {type, location, collection, include, exclude, "
            + "branch, schedule, watch, metadata}; the same location and collection again updates that source. metadata: key → "
            + "string, number, ISO-8601 date or list of strings for every document of the source (400 for a source field name "
            + "such as path or commit, a filter word, a nested object or an oversized key or value); each document also gets "
            + "path, fileName, extension, sourceId, title, mediaType, modified (and created where the file system keeps it; "
            + "git: the commit that last changed the file, its author and its time as modified). Changing only metadata updates the documents at the "
            + "next run without embedding them again")
    @RolesAllowed(Role.WRITER)
    public Response create(SourceRequest request) {
        if (request != null) {
            access.collection(request.collection());
        }
        return Response.status(201).entity(sync.save(request)).build();
    }

    @GET
    @Operation(summary = "Every source (of the collections the caller's key is granted), with its last run")
    public List<SourceView> all() {
        return sync.all().stream().filter(source -> access.allowsCollection(source.collection())).toList();
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "A source, its documents and its last run: added, changed, deleted, unchanged and refused files")
    public SourceView show(@PathParam("id") String id) {
        return visible(id);
    }

    @POST
    @Path("/{id}/run")
    @Operation(summary = "Sync a source now, or after the runs asked for before (202 {sourceId, runId}; 429 when 16 wait); allowMassDelete lets a run delete more than half of its "
            + "documents; dryRun answers (200) what a run would do, changing nothing")
    @RolesAllowed(Role.WRITER)
    public Response run(@PathParam("id") String id, @QueryParam("allowMassDelete") Boolean allowMassDelete,
                        @QueryParam("dryRun") Boolean dryRun) {
        visible(id);
        if (Boolean.TRUE.equals(dryRun)) {
            return Response.ok(sync.dryRun(id)).build();
        }
        boolean allow = Boolean.TRUE.equals(allowMassDelete);
        Map<String, Object> accepted = new HashMap<>();
        accepted.put("sourceId", id);
        accepted.put("runId", sync.run(id, allow));
        return Response.accepted(accepted).build();
    }

    @GET
    @Path("/{id}/runs")
    @Operation(summary = "A source's recent runs, newest first: queued, running and ended, each with its own options")
    public List<SyncRun> runs(@PathParam("id") String id) {
        visible(id);
        return sync.runs(id);
    }

    @GET
    @Path("/{id}/runs/{runId}")
    @Operation(summary = "One run of a source, by the id POST /api/sources/{id}/run answered: queued, running, or how it ended")
    public SyncRun run(@PathParam("id") String id, @PathParam("runId") String runId) {
        visible(id);
        return sync.runs(id).stream().filter(run -> run.runId().equals(runId)).findFirst()
                .orElseThrow(() -> ApiException.notFound("source '" + id + "' has no recent run '" + runId + "'"));
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Stop keeping a source (its run stops, the runs waiting are dropped); with deleteDocuments=true its "
            + "documents leave every store too")
    @RolesAllowed(Role.WRITER)
    public SourceView delete(@PathParam("id") String id, @QueryParam("deleteDocuments") Boolean deleteDocuments) {
        visible(id);
        return sync.delete(id, Boolean.TRUE.equals(deleteDocuments)).orElseThrow(() -> ApiException.notFound("no source '" + id + "'"));
    }

    private SourceView visible(String id) {
        SourceView source = sync.get(id).orElseThrow(() -> ApiException.notFound("no source '" + id + "'"));
        access.collection(source.collection());
        return source;
    }
}
