package dev.openrag.ingest.job;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestStreamElementType;

import dev.openrag.knowledge.runtime.ApiException;
import io.smallrye.mutiny.Multi;

/** {@code GET /api/jobs/{id}} and its server-sent event stream. */
@Path("/api/jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    private final JobTracker tracker;

    public JobsResource(JobTracker tracker) {
        this.tracker = tracker;
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "A job's state, per-stage counts and failures with reasons")
    public JobStatus get(@PathParam("id") String jobId) {
        return tracker.status(jobId).orElseThrow(() -> ApiException.notFound("no job " + jobId));
    }

    @GET
    @Path("/{id}/events")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    @Operation(summary = "The job's status at every change, until it finishes (SSE)")
    public Multi<JobStatus> events(@PathParam("id") String jobId) {
        if (tracker.status(jobId).isEmpty()) {
            throw ApiException.notFound("no job " + jobId);
        }
        return tracker.follow(jobId);
    }
}
