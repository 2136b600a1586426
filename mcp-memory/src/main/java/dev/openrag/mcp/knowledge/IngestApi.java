package dev.openrag.mcp.knowledge;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import com.fasterxml.jackson.databind.JsonNode;

/** ingest-pipeline's job status ({@code GET /api/jobs/{id}}, ARCHITECTURE §5). */
@RegisterRestClient(configKey = "ingest")
@Path("/api/jobs")
public interface IngestApi {

    @GET
    @Path("/{id}")
    JsonNode job(@HeaderParam("Authorization") String authorization, @PathParam("id") String jobId);
}
