package dev.openrag.mcp.knowledge;

import java.util.Map;

import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import com.fasterxml.jackson.databind.JsonNode;

/** query-api's REST contract (ARCHITECTURE §5), passed through as JSON so the two apps share no DTOs. */
@RegisterRestClient(configKey = "query-api")
@Path("/api")
public interface QueryApi {

    @POST
    @Path("/search")
    JsonNode search(@HeaderParam("Authorization") String authorization, Map<String, Object> request);

    @POST
    @Path("/ask")
    JsonNode ask(@HeaderParam("Authorization") String authorization, Map<String, Object> request);
}
