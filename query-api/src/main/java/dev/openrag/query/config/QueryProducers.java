package dev.openrag.query.config;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.embedding.OnnxEmbedder;
import dev.openrag.knowledge.neo4j.Neo4jVectorIndex;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.knowledge.port.VectorIndex;
import dev.openrag.knowledge.qdrant.QdrantVectorIndex;
import io.qdrant.client.QdrantClient;
import io.qdrant.client.QdrantGrpcClient;

/** The retrieval adapters of this app, chosen by configuration here and nowhere else. */
public class QueryProducers {

    @Produces
    @Singleton
    OnnxEmbedder embedder() {
        return new OnnxEmbedder();
    }

    @Produces
    @Singleton
    LexicalIndex lexicalIndex(OpenSearchClient client) {
        return new OpenSearchLexicalIndex(client, false);
    }

    /** {@code openrag.vectors.backend}: neo4j (one machine, default) or qdrant (cluster deployments). */
    @Produces
    @Singleton
    VectorIndex vectorIndex(Driver driver, OnnxEmbedder embedder,
                            @ConfigProperty(name = "openrag.vectors.backend", defaultValue = "neo4j") String backend,
                            @ConfigProperty(name = "openrag.qdrant.host", defaultValue = "127.0.0.1") String qdrantHost,
                            @ConfigProperty(name = "openrag.qdrant.port", defaultValue = "6334") int qdrantPort) {
        return switch (backend) {
            case "neo4j" -> new Neo4jVectorIndex(driver);
            case "qdrant" -> new QdrantVectorIndex(new QdrantClient(QdrantGrpcClient.newBuilder(qdrantHost, qdrantPort, false).build()),
                    embedder.dimension());
            default -> throw new IllegalArgumentException("openrag.vectors.backend must be neo4j or qdrant, not '" + backend + "'");
        };
    }
}
