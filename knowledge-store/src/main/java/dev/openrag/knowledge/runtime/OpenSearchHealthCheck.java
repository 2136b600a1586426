package dev.openrag.knowledge.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.opensearch.client.opensearch.OpenSearchClient;

/** Readiness: OpenSearch answers and its cluster is not red. */
@Readiness
@ApplicationScoped
public class OpenSearchHealthCheck implements HealthCheck {

    @Inject
    OpenSearchClient client;

    @ConfigProperty(name = "openrag.opensearch.url", defaultValue = "http://127.0.0.1:9200")
    String url;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("OpenSearch connection health check").withData("url", url);
        try {
            String status = client.cluster().health().status().jsonValue();
            return response.withData("status", status).status(!"red".equals(status)).build();
        } catch (Exception e) {
            return response.down().withData("error", String.valueOf(e.getMessage())).build();
        }
    }
}
