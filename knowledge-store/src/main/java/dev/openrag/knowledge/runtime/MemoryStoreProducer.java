package dev.openrag.knowledge.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.neo4j.driver.Driver;

import dev.openrag.knowledge.neo4j.Neo4jMemoryStore;
import dev.openrag.knowledge.port.MemoryStore;
import io.quarkus.runtime.StartupEvent;

/** Agents' memory lives in Neo4j: mcp-memory writes it, query-api reads pinned memories and corrections. */
@ApplicationScoped
public class MemoryStoreProducer {

    /** Settings out of range stop the app when it starts, not at its first memory search. */
    void validate(@Observes StartupEvent start, MemorySearchSettings settings) {
        settings.tuning();
    }

    @Produces
    @Singleton
    MemoryStore memoryStore(Driver driver, MemorySearchSettings settings) {
        return new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, settings.maxCopied(), settings.tuning());
    }
}
