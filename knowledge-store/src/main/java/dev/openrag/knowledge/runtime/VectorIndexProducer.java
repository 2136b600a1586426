package dev.openrag.knowledge.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.neo4j.driver.Driver;

import dev.openrag.knowledge.neo4j.Neo4jVectorIndex;
import dev.openrag.knowledge.port.ChunkLookup;
import dev.openrag.knowledge.port.VectorIndex;
import dev.openrag.knowledge.qdrant.QdrantVectorIndex;
import dev.openrag.knowledge.vector.InMemoryVectorIndex;
import io.qdrant.client.QdrantClient;
import io.qdrant.client.QdrantGrpcClient;

/**
 * The vector backend of every app, chosen by {@code openrag.vectors.backend}: neo4j (one machine,
 * default) or qdrant (cluster deployments, {@code openrag.qdrant.host}/{@code port}). With neo4j,
 * collections of up to {@code openrag.vectors.in-memory.max-chunks} chunks in all (0: none) are
 * searched in an exact in-memory copy that is checked against Neo4j on every search
 * ({@link InMemoryVectorIndex}).
 */
@ApplicationScoped
public class VectorIndexProducer {

    @Produces
    @Singleton
    VectorIndex vectorIndex(Driver driver,
                            @ConfigProperty(name = "openrag.vectors.backend", defaultValue = "neo4j") String backend,
                            @ConfigProperty(name = "openrag.embedding.dimension", defaultValue = "384") int dimension,
                            @ConfigProperty(name = "openrag.qdrant.host", defaultValue = "127.0.0.1") String qdrantHost,
                            @ConfigProperty(name = "openrag.qdrant.port", defaultValue = "6334") int qdrantPort,
                            @ConfigProperty(name = "openrag.vectors.neo4j.search-breadth", defaultValue = "" + Neo4jVectorIndex.SEARCH_BREADTH)
                            int searchBreadth,
                            @ConfigProperty(name = "openrag.vectors.in-memory.max-chunks", defaultValue = "20000") long inMemoryChunks) {
        return switch (backend) {
            case "neo4j" -> {
                Neo4jVectorIndex index = new Neo4jVectorIndex(driver, searchBreadth);
                yield inMemoryChunks > 0 ? new InMemoryVectorIndex(index, index, index, inMemoryChunks) : index;
            }
            case "qdrant" -> new QdrantVectorIndex(
                    new QdrantClient(QdrantGrpcClient.newBuilder(qdrantHost, qdrantPort, false).build()), dimension);
            default -> throw new IllegalArgumentException("openrag.vectors.backend must be neo4j or qdrant, not '" + backend + "'");
        };
    }

    /** Chunks by place: from the in-memory copies where the vector index keeps them, else from Neo4j (every backend writes chunks there). */
    @Produces
    @Singleton
    ChunkLookup chunkLookup(VectorIndex vectors, Driver driver) {
        return vectors instanceof ChunkLookup lookup ? lookup : new Neo4jVectorIndex(driver);
    }
}
