package dev.openrag.ingest.stage;

import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.openrag.knowledge.access.Role;

/** {@code GET /api/stages/lag}: each stage's consumer lag as last read from the broker (the UI's jobs view shows it). */
@Path("/api/stages/lag")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Role.READER)
public class StageLagResource {

    /** Stage → records its consumer group has not committed yet, in flow order; empty until the first read (5 s). */
    public record Lag(Map<String, Long> stages) {
    }

    private final StageLag lag;

    public StageLagResource(StageLag lag) {
        this.lag = lag;
    }

    @GET
    @Operation(summary = "Each stage's consumer lag (records not yet committed by its group, all partitions), as openrag_stage_lag_records")
    public Lag lag() {
        return new Lag(lag.lag());
    }
}
