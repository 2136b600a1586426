package dev.openrag.memory.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.neo4j.driver.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.openrag.memory.MemoryWords;
import dev.openrag.memory.neo4j.MemorySchema;
import io.quarkus.runtime.StartupEvent;

/**
 * Creates memory's Neo4j constraints and indexes when an app that holds memory starts, and runs its migrations of
 * memories written by an older version ({@link MemorySchema}; idempotent, so every such app may do it).
 * An unreachable Neo4j does not stop the app: readiness reports it instead, and the next start migrates.
 */
@ApplicationScoped
public class MemorySchemaBootstrap {

    private static final Logger LOG = LoggerFactory.getLogger(MemorySchemaBootstrap.class);

    @Inject
    Driver driver;

    @Inject
    MemorySearchSettings settings;

    @ConfigProperty(name = "openrag.embedding.dimension", defaultValue = "384")
    int dimension;

    @ConfigProperty(name = "openrag.neo4j.bootstrap", defaultValue = "true")
    boolean enabled;

    void onStart(@Observes StartupEvent started) {
        if (!enabled) {
            return;
        }
        try {
            MemorySchema.Migrated migrated = MemorySchema.bootstrap(driver, dimension, MemoryWords.of(settings.stemming()));
            LOG.info("Neo4j memory schema ready (vector dimension {})", dimension);
            if (migrated.supersessionsRestored() > 0) {
                LOG.info("restored {} memories an earlier release hid by inference; their links are suggestions now",
                        migrated.supersessionsRestored());
            }
        } catch (IllegalStateException e) {
            throw e; // a dimension mismatch is a configuration error: refuse to start
        } catch (RuntimeException e) {
            LOG.warn("Neo4j memory schema bootstrap failed, readiness will report Neo4j: {}", e.getMessage());
        }
    }
}
