package dev.openrag.ingest.job;

import java.util.Set;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestStreamElementType;

import dev.openrag.knowledge.access.Grant;
import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.auth.Access;
import io.smallrye.mutiny.Multi;

/** {@code GET /api/jobs/{id}} and its server-sent event stream. */
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
        Grant grant = access.grant();
        if (!grant.allowsAllCollections() && (collections.isEmpty() || !collections.stream().allMatch(grant::allowsCollection))) {
            throw Access.forbidden("this API key is not granted the collections of job " + jobId);
        }
    }
}
