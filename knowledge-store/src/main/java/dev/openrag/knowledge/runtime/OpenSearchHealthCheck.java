package dev.openrag.knowledge.runtime;

import java.net.ConnectException;
import java.time.Duration;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.opensearch.client.opensearch.OpenSearchClient;

/** Readiness: OpenSearch answers within {@code openrag.health.timeout} and its cluster is not red. */
@Readiness
@ApplicationScoped
public class OpenSearchHealthCheck implements HealthCheck {

    private final OpenSearchClient client;
    private final EngineProbe probe;

    public OpenSearchHealthCheck(OpenSearchClient client,
                                 @ConfigProperty(name = "openrag.health.timeout", defaultValue = "PT1.5S") Duration budget) {
        this.client = client;
        this.probe = new EngineProbe("OpenSearch connection health check", "opensearch", budget, OpenSearchHealthCheck::reason);
    }

    @Override
    public HealthCheckResponse call() {
        return probe.probe(() -> {
            String status = client.cluster().health().status().jsonValue();
            return "red".equals(status) ? null : Map.of("status", status);
        });
    }

    static String reason(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException) {
                return "unreachable";
            }
        }
        return "failed (" + error.getClass().getSimpleName() + "; the server log has the details)";
    }
}
