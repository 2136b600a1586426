package dev.openrag.ingest.stage;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import dev.openrag.knowledge.port.EngineUnavailableException;
import dev.openrag.knowledge.runtime.Neo4jHealthCheck;
import dev.openrag.knowledge.runtime.OpenSearchHealthCheck;

/**
 * Whether an engine answers other requests right now, by its readiness probe (bounded by
 * {@code openrag.health.timeout}). Empty for an engine without one here (Kafka, Qdrant, a model
 * server): a stage then cannot tell a document the engine refuses from an outage, and waits.
 */
@ApplicationScoped
public class EngineLiveness {

    private final Instance<Neo4jHealthCheck> neo4j;
    private final Instance<OpenSearchHealthCheck> openSearch;

    public EngineLiveness(@Readiness Instance<Neo4jHealthCheck> neo4j, @Readiness Instance<OpenSearchHealthCheck> openSearch) {
        this.neo4j = neo4j;
        this.openSearch = openSearch;
    }

    /** True when the engine's probe answers up, false when down, empty when there is no probe for it. */
    public Optional<Boolean> answers(String engine) {
        Instance<? extends HealthCheck> probe = switch (engine) {
            case EngineUnavailableException.NEO4J -> neo4j;
            case EngineUnavailableException.OPENSEARCH -> openSearch;
            default -> null;
        };
        if (probe == null || !probe.isResolvable()) {
            return Optional.empty();
        }
        return Optional.of(probe.get().call().getStatus() == HealthCheckResponse.Status.UP);
    }
}
