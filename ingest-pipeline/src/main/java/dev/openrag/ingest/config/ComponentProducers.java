package dev.openrag.ingest.config;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.neo4j.Neo4jCollectionSettingsStore;
import dev.openrag.knowledge.neo4j.Neo4jDocumentTexts;
import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.CollectionSettingsStore;
import dev.openrag.knowledge.port.DocumentTexts;
import dev.openrag.knowledge.port.GraphStore;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.schemas.EventCodec;

/**
 * The adapters this app uses (embedder and vector backend: knowledge-store's shared producers;
 * contextualizers, graph extractors and summarizers: {@link dev.openrag.ingest.enrich.Enrichments}).
 */
public class ComponentProducers {

    @Produces
    @Singleton
    EventCodec eventCodec() {
        return new EventCodec();
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
    CollectionSettingsStore collectionSettings(Driver driver) {
        return new Neo4jCollectionSettingsStore(driver);
    }

    @Produces
    @Singleton
    GraphStore graphStore(Driver driver) {
        return new Neo4jGraphStore(driver);
    }

    @Produces
    @Singleton
    DocumentTexts documentTexts(Driver driver) {
        return new Neo4jDocumentTexts(driver);
    }
}
