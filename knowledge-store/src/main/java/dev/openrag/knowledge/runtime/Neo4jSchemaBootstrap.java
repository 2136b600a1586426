package dev.openrag.knowledge.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.neo4j.driver.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.openrag.knowledge.neo4j.Neo4jSchema;
import io.quarkus.runtime.StartupEvent;

/**
 * Creates the Neo4j constraints and vector indexes when an app starts (idempotent, so every app
 * may do it). An unreachable Neo4j does not stop the app: readiness reports it instead.
 */
@ApplicationScoped
public class Neo4jSchemaBootstrap {

    private static final Logger LOG = LoggerFactory.getLogger(Neo4jSchemaBootstrap.class);

    @Inject
    Driver driver;

    @ConfigProperty(name = "openrag.embedding.dimension", defaultValue = "384")
    int dimension;

    @ConfigProperty(name = "openrag.neo4j.bootstrap", defaultValue = "true")
    boolean enabled;

    void onStart(@Observes StartupEvent started) {
        if (!enabled) {
            return;
        }
        try {
            Neo4jSchema.bootstrap(driver, dimension);
            LOG.info("Neo4j schema ready (vector dimension {})", dimension);
        } catch (IllegalStateException e) {
            throw e; // a dimension mismatch is a configuration error: refuse to start
        } catch (RuntimeException e) {
            LOG.warn("Neo4j schema bootstrap failed, readiness will report Neo4j: {}", e.getMessage());
        }
    }
}
