package dev.openrag.query;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;

import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.opensearch.OpenSearchFacets;
import dev.openrag.knowledge.port.MetadataFacets;

/**
 * The app's metadata facets on the real OpenSearch, whose key lookup ({@link #held}) a test can hold back for a
 * collection ({@link #STALLED}, until its latch opens) or make fail ({@link #FAILING}), as a slow or refusing engine
 * would; every other collection and call goes straight through.
 */
@Alternative
@Priority(1)
@Singleton
public class StallableMetadataFacets implements MetadataFacets {

    public static final Map<String, CountDownLatch> STALLED = new ConcurrentHashMap<>();
    public static final Set<String> FAILING = ConcurrentHashMap.newKeySet();

    private final MetadataFacets facets;

    public StallableMetadataFacets(OpenSearchClient client) {
        this.facets = new OpenSearchFacets(client);
    }

    @Override
    public Set<String> keys(String collection) {
        return facets.keys(collection);
    }

    @Override
    public Set<String> held(String collection, Collection<String> keys) {
        if (FAILING.contains(collection)) {
            throw new IllegalStateException("opensearch refused looking up metadata keys (a test's failure)");
        }
        CountDownLatch stalled = STALLED.get(collection);
        if (stalled != null) {
            try {
                stalled.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return facets.held(collection, keys);
    }

    @Override
    public List<Value> values(String collection, String key, String query, int size) {
        return facets.values(collection, key, query, size);
    }
}
