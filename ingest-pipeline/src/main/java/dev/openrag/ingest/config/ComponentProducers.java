package dev.openrag.ingest.config;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.contextual.StructuralContextualizer;
import dev.openrag.knowledge.embedding.OnnxEmbedder;
import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.Contextualizer;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.GraphStore;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.schemas.EventCodec;

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

    @Produces
    @Singleton
    Contextualizer contextualizer() {
        return new StructuralContextualizer();
    }

    @Produces
    @Singleton
    LexicalIndex lexicalIndex(OpenSearchClient client) {
        // refresh after each document's write: progress shown as "done" is then searchable at once
        return new OpenSearchLexicalIndex(client, true);
    }

    @Produces
    @Singleton
    GraphStore graphStore(Driver driver) {
        return new Neo4jGraphStore(driver);
    }
}
