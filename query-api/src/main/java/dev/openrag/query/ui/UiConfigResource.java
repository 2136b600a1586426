package dev.openrag.query.ui;

import java.util.Optional;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * What the web UI at {@code /} needs to know: where the ingest pipeline answers (the browser calls
 * it directly; it allows local origins by CORS). Without {@code openrag.ui.ingest-url} the UI uses
 * the page's host on port 8081.
 */
@Path("/api/ui/config")
public class UiConfigResource {

    /** {@code ingestUrl} null: the page's host, port 8081. */
    public record UiConfig(String ingestUrl) {
    }

    private final Optional<String> ingestUrl;

    public UiConfigResource(@ConfigProperty(name = "openrag.ui.ingest-url") Optional<String> ingestUrl) {
        this.ingestUrl = ingestUrl;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Settings of the web UI")
    public UiConfig config() {
        return new UiConfig(ingestUrl.map(url -> url.replaceAll("/+$", "")).orElse(null));
    }
}
