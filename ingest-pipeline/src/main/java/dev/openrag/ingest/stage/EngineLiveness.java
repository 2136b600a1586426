package dev.openrag.ingest.stage;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.logging.Logger;

import dev.openrag.knowledge.port.EngineUnavailableException;
import dev.openrag.knowledge.port.GraphStore;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.knowledge.runtime.Neo4jHealthCheck;
import dev.openrag.knowledge.runtime.OpenSearchHealthCheck;

/**
 * Whether an engine answers other requests right now, by its readiness probe (bounded by
 * {@code openrag.health.timeout}). Empty for an engine without one here (Kafka, Qdrant, a model
 * server): a stage then cannot tell a document the engine refuses from an outage, and waits.
 *
 * <p>An engine can answer its probe and still refuse every write (a read-only block, a full write
 * queue): {@link #acceptsWrites} tries a write that changes nothing, which tells one document the
 * engine refuses from writes it refuses alike.
 */
@ApplicationScoped
public class EngineLiveness {

    private static final Logger LOG = Logger.getLogger(EngineLiveness.class);

    private final Instance<Neo4jHealthCheck> neo4j;
    private final Instance<OpenSearchHealthCheck> openSearch;

    private final Instance<GraphStore> graph;
    private final Instance<LexicalIndex> lexical;

    public EngineLiveness(@Readiness Instance<Neo4jHealthCheck> neo4j, @Readiness Instance<OpenSearchHealthCheck> openSearch,
                          Instance<GraphStore> graph, Instance<LexicalIndex> lexical) {
        this.neo4j = neo4j;
        this.openSearch = openSearch;
        this.graph = graph;
        this.lexical = lexical;
    }

    /**
     * Whether the engine takes a write of the collection's now: true when a write that changes
     * nothing went through; empty when it was refused too (an outage: every write fails), when it
     * failed otherwise, or when there is no way to try. Refused or failed, the probe's failure is logged.
     */
    public Optional<Boolean> acceptsWrites(String engine, String collection) {
        try {
            return switch (engine) {
                case EngineUnavailableException.NEO4J -> {
                    if (!graph.isResolvable()) {
                        yield Optional.empty();
                    }
                    graph.get().probeWrite();
                    yield Optional.of(true);
                }
                case EngineUnavailableException.OPENSEARCH -> lexical.isResolvable() && collection != null
                        && lexical.get().acceptsWrites(collection) ? Optional.of(true) : Optional.empty();
                default -> Optional.empty();
            };
        } catch (RuntimeException e) {
            LOG.debugf("%s refused a probe write: %s", engine, e);
            return Optional.empty();
        }
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
