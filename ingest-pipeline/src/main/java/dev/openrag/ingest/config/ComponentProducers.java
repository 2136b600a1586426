package dev.openrag.ingest.config;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.contextual.OllamaContextualizer;
import dev.openrag.knowledge.contextual.StructuralContextualizer;
import dev.openrag.knowledge.embedding.OnnxEmbedder;
import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.neo4j.Neo4jVectorIndex;
import dev.openrag.knowledge.qdrant.QdrantVectorIndex;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.Contextualizer;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.GraphStore;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.knowledge.port.VectorIndex;
import dev.openrag.schemas.EventCodec;
import io.qdrant.client.QdrantClient;
import io.qdrant.client.QdrantGrpcClient;

/** The adapters this app uses, chosen here and nowhere else. */
public class ComponentProducers {

    @Produces
    @Singleton
    EventCodec eventCodec() {
        return new EventCodec();
    }

    @Produces
    @Singleton
    Embedder embedder() {
        return new OnnxEmbedder();
    }

    /** {@code openrag.contextualizer}: structural (offline default) or ollama (an LLM, with the structural fallback). */
    @Produces
    @Singleton
    Contextualizer contextualizer(@ConfigProperty(name = "openrag.contextualizer", defaultValue = "structural") String mode,
                                  @ConfigProperty(name = "openrag.ollama.url", defaultValue = "http://127.0.0.1:11434") String url,
                                  @ConfigProperty(name = "openrag.ollama.model", defaultValue = "llama3.2") String model,
                                  @ConfigProperty(name = "openrag.ollama.max-in-flight", defaultValue = "2") int maxInFlight,
                                  @ConfigProperty(name = "openrag.ollama.timeout", defaultValue = "PT60S") java.time.Duration timeout,
                                  @ConfigProperty(name = "openrag.ollama.max-retries", defaultValue = "2") int maxRetries) {
        return switch (mode) {
            case "structural" -> new StructuralContextualizer();
            case "ollama" -> new OllamaContextualizer(url, model, maxInFlight, timeout, maxRetries, 24_000);
            default -> throw new IllegalArgumentException("openrag.contextualizer must be structural or ollama, not '" + mode + "'");
        };
    }

    /**
     * By default OpenSearch makes writes searchable within its 1 s refresh interval, which keeps
     * indexing cheap; {@code openrag.opensearch.refresh-on-write=true} (tests) makes a document
     * searchable the moment its job shows it done.
     */
    @Produces
    @Singleton
    LexicalIndex lexicalIndex(OpenSearchClient client,
                              @ConfigProperty(name = "openrag.opensearch.refresh-on-write", defaultValue = "false") boolean refresh) {
        return new OpenSearchLexicalIndex(client, refresh);
    }

    @Produces
    @Singleton
    GraphStore graphStore(Driver driver) {
        return new Neo4jGraphStore(driver);
    }

    /** {@code openrag.vectors.backend}: neo4j (one machine, default) or qdrant (cluster deployments). */
    @Produces
    @Singleton
    VectorIndex vectorIndex(Driver driver, Embedder embedder,
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
