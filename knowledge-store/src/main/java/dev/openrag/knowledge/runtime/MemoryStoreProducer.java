package dev.openrag.knowledge.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.neo4j.driver.Driver;

import dev.openrag.knowledge.neo4j.Neo4jMemoryStore;
import dev.openrag.knowledge.port.MemoryStore;

/** Agents' memory lives in Neo4j: mcp-memory writes it, query-api reads pinned memories and corrections. */
@ApplicationScoped
public class MemoryStoreProducer {

    @Produces
    @Singleton
    MemoryStore memoryStore(Driver driver) {
        return new Neo4jMemoryStore(driver);
    }
}
