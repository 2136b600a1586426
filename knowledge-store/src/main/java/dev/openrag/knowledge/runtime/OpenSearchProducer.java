package dev.openrag.knowledge.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.inject.Singleton;
import jakarta.enterprise.inject.Produces;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.opensearch.OpenSearchClients;

/** The OpenSearch client of every app, from {@code openrag.opensearch.url} (env OPENRAG_OPENSEARCH_URL). */
@ApplicationScoped
public class OpenSearchProducer {

    /** Singleton, not ApplicationScoped: the client class is final-ish and cannot be proxied. */
    @Produces
    @Singleton
    OpenSearchClient openSearchClient(
            @ConfigProperty(name = "openrag.opensearch.url", defaultValue = "http://127.0.0.1:9200") String url) {
        return OpenSearchClients.create(url);
    }

    void close(@Disposes OpenSearchClient client) throws Exception {
        client._transport().close();
    }
}
