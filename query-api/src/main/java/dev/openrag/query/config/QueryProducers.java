package dev.openrag.query.config;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.embedding.OnnxEmbedder;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.LexicalIndex;

/** The retrieval adapters of this app (the vector backend comes from knowledge-store's VectorIndexProducer). */
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
}
