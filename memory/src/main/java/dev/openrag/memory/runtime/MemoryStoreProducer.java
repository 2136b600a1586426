package dev.openrag.memory.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.neo4j.driver.Driver;

import dev.openrag.knowledge.embedding.SecondEmbedder;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.runtime.ReadDeadline;
import dev.openrag.memory.DeadlineMemoryStore;
import dev.openrag.memory.MemoryEmbeddings;
import dev.openrag.memory.MemoryStore;
import dev.openrag.memory.neo4j.Neo4jMemoryStore;
import io.quarkus.runtime.StartupEvent;

/** Agents' memory lives in Neo4j: mcp-memory writes it, query-api reads pinned memories and corrections. */
@ApplicationScoped
public class MemoryStoreProducer {

    /** Settings out of range stop the app when it starts, not at its first memory search. */
    void validate(@Observes StartupEvent start, MemorySearchSettings settings) {
        settings.tuning();
        SecondEmbedder.of(settings.secondModel()); // an unknown model's id names the bundled ones
    }

    /** A memory's vectors: the app's embedder and the second model (off with {@code openrag.memory.second-model=none}). */
    @Produces
    @Singleton
    MemoryEmbeddings memoryEmbeddings(Embedder embedder, MemorySearchSettings settings) {
        return new MemoryEmbeddings(embedder, SecondEmbedder.of(settings.secondModel()));
    }

    /** Its reads keep {@code openrag.read.timeout}: a frozen Neo4j costs a caller that long, then a 503 or tool error naming it. */
    @Produces
    @Singleton
    MemoryStore memoryStore(Driver driver, MemorySearchSettings settings, ReadDeadline deadline) {
        return new DeadlineMemoryStore(new Neo4jMemoryStore(driver, Neo4jMemoryStore.EXACT_SCAN_LIMIT, settings.maxCopied(),
                settings.tuning()), deadline);
    }
}
