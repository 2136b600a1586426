package dev.openrag.query.search;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import dev.openrag.knowledge.port.Embedder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;

/**
 * Query vectors, remembered: a bounded cache ({@code openrag.search.query-cache.size} entries, 10,000 by default,
 * about 16 MB at 384 dimensions; 0 turns it off) keyed by the embedding model and the exact text the model is given
 * ({@link Embedder#queryInput}, instruction prefix included), so a repeated query skips the embedder and a vector is
 * never served to another model or another instruction. Least recently and frequently used entries go first
 * (Caffeine's W-TinyLFU). Its gets (hit, miss), puts, evictions and size are in {@code /q/metrics} as
 * {@code cache_gets_total{cache="query-vectors",result="hit|miss"}}, {@code cache_size{cache="query-vectors"}}, …
 */
@ApplicationScoped
public class QueryVectors {

    public static final String CACHE = "query-vectors";

    /** A query's vector and whether it came from the cache. */
    public record Lookup(float[] vector, boolean cached) {
    }

    private record Key(String model, String input) {
    }

    private final Cache<Key, float[]> cache;

    @Inject
    public QueryVectors(@ConfigProperty(name = "openrag.search.query-cache.size", defaultValue = "10000") long size,
                        MeterRegistry registry) {
        this(size);
        CaffeineCacheMetrics.monitor(registry, cache, CACHE);
    }

    QueryVectors(long size) {
        if (size < 0) {
            throw new IllegalArgumentException("openrag.search.query-cache.size must be 0 (off) or more, got " + size);
        }
        // upkeep (evictions) on the caller's thread: a few microseconds, and the size bound holds at every return
        this.cache = Caffeine.newBuilder().maximumSize(size).executor(Runnable::run).recordStats().build();
    }

    /** {@code query}'s vector by {@code embedder}: from the cache when this model was given this exact text before. */
    public Lookup embed(Embedder embedder, String query) {
        Key key = new Key(embedder.modelName(), embedder.queryInput(query));
        float[] known = cache.getIfPresent(key);
        if (known != null) {
            return new Lookup(known.clone(), true); // a copy: no caller can change what the next one gets
        }
        float[] vector = embedder.embedQuery(query);
        cache.put(key, vector.clone());
        return new Lookup(vector, false);
    }
}
