package dev.openrag.query.ui;

import java.util.Optional;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;

import dev.openrag.knowledge.runtime.auth.Authenticator;

/**
 * What the web UI at {@code /} needs to know: where the ingest pipeline answers (the browser calls
 * it directly; it allows local origins by CORS). Without {@code openrag.ui.ingest-url} the UI uses
 * the page's host on port 8081.
 */
@Path("/api/ui/config")
public class UiConfigResource {

    /** {@code ingestUrl} null: the page's host, port 8081; {@code authEnabled}: the UI asks for an API key. */
    public record UiConfig(String ingestUrl, boolean authEnabled) {
    }

    private final Optional<String> ingestUrl;
    private final Authenticator authenticator;

    public UiConfigResource(@ConfigProperty(name = "openrag.ui.ingest-url") Optional<String> ingestUrl, Authenticator authenticator) {
        this.ingestUrl = ingestUrl;
        this.authenticator = authenticator;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Settings of the web UI")
    public UiConfig config() {
        return new UiConfig(ingestUrl.map(url -> url.replaceAll("/+$", "")).orElse(null), authenticator.enabled());
    }
}
