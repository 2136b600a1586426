package dev.openrag.ingest.job;

import java.util.List;
import java.util.Set;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestStreamElementType;

import dev.openrag.knowledge.access.Grant;
import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.auth.Access;
import io.smallrye.mutiny.Multi;

/** {@code GET /api/jobs} (recent jobs), {@code GET /api/jobs/{id}} and its server-sent event stream. */
@Path("/api/jobs")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Role.READER)
public class JobsResource {

    private final JobTracker tracker;
    private final Access access;

    public JobsResource(JobTracker tracker, Access access) {
        this.tracker = tracker;
        this.access = access;
    }

    /** {@code GET /api/jobs}: one job in a list of recent ones; its full status is {@code GET /api/jobs/{id}}. */
    public record Listed(String jobId, List<String> collections, String state, JobStatus.Documents documents) {
    }

    public record Recent(List<Listed> jobs) {
    }

    @GET
    @Operation(summary = "The jobs that changed last, newest first (limit 1-100, default 10), of the collections the caller's key is"
            + " granted: {jobs: [{jobId, collections, state, documents: {total, done, failed}}]}")
    public Recent recent(@QueryParam("limit") @DefaultValue("10") int limit) {
        if (limit < 1 || limit > 100) {
            throw ApiException.badRequest("'limit' must be between 1 and 100");
        }
        return new Recent(tracker.recent(limit, this::visible).stream().map(job -> new Listed(job.status().jobId(),
                job.collections(), job.status().state(), job.status().documents())).toList());
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "A job's state, per-stage counts and failures with reasons")
    public JobStatus get(@PathParam("id") String jobId) {
        requireVisible(jobId);
        return tracker.status(jobId).orElseThrow(() -> ApiException.notFound("no job " + jobId));
    }

    @GET
    @Path("/{id}/events")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    @Operation(summary = "The job's status at every change, until it finishes (SSE)")
    public Multi<JobStatus> events(@PathParam("id") String jobId) {
        requireVisible(jobId);
        return tracker.follow(jobId);
    }

    /** 404 for an unknown job; 403 unless the caller's key is granted every collection the job wrote to. */
    private void requireVisible(String jobId) {
        Set<String> collections = tracker.collections(jobId).orElseThrow(() -> ApiException.notFound("no job " + jobId));
        if (!visible(collections)) {
            throw Access.forbidden("this API key is not granted the collections of job " + jobId);
        }
    }

    private boolean visible(Set<String> collections) {
        Grant grant = access.grant();
        return grant.allowsAllCollections() || (!collections.isEmpty() && collections.stream().allMatch(grant::allowsCollection));
    }
}
