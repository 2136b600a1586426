package dev.openrag.knowledge.opensearch;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.SortOrder;
import org.opensearch.client.opensearch._types.aggregations.Aggregate;
import org.opensearch.client.opensearch._types.aggregations.Aggregation;
import org.opensearch.client.opensearch._types.query_dsl.Query;
import org.opensearch.client.opensearch._types.query_dsl.TextQueryType;
import org.opensearch.client.opensearch.core.SearchResponse;

import dev.openrag.knowledge.port.MetadataFacets;

/**
 * {@link MetadataFacets} over the chunk index: the keys are the index mapping's {@code meta_s},
 * {@code meta_n} and {@code meta_d} sub-fields that some chunk holds (a filters aggregation); a key's values
 * are a terms aggregation on each kind's field, counting distinct documents per value (a
 * cardinality sub-aggregation on {@code documentId}, exact below its threshold), not chunks.
 */
public final class OpenSearchFacets implements MetadataFacets {

    /** Distinct documents are counted exactly up to here (OpenSearch's cardinality precision threshold). */
    static final int EXACT_DOCUMENTS = 10_000;
    private static final Map<String, String> KINDS = Map.of(OpenSearchFilters.STRINGS, "string",
            OpenSearchFilters.NUMBERS, "number", OpenSearchFilters.DATES, "date");

    private final OpenSearchClient client;

    public OpenSearchFacets(OpenSearchClient client) {
        this.client = client;
    }

    /**
     * The mapping's keys that some chunk holds: a field stays mapped after its last document is gone, and parsing
     * maps a document's new fields before any store has it (one that is then refused never comes).
     */
    @Override
    public Set<String> keys(String collection) {
        Set<String> mapped = new TreeSet<>();
        ChunkIndex.metadataFields(client, collection).forEach(field -> mapped.add(field.substring(field.indexOf('.') + 1)));
        return held(collection, mapped);
    }

    /**
     * One round trip: a filters aggregation with a bucket per key, counting the chunks that hold it in any kind. Every
     * filtered search asks it: OpenSearch's shard request cache answers it again (size 0) until the index next
     * changes, so the cache follows writes as searches see them.
     */
    @Override
    @SuppressWarnings("rawtypes")
    public Set<String> held(String collection, java.util.Collection<String> keys) {
        if (keys.isEmpty()) {
            return Set.of();
        }
        Map<String, Query> holding = new java.util.LinkedHashMap<>();
        keys.forEach(key -> holding.put(key, OpenSearchFilters.query(new dev.openrag.knowledge.filter.DocumentFilter.Exists(key, true))));
        try {
            SearchResponse<Map> response = client.search(s -> s.index(ChunkIndex.name(collection)).ignoreUnavailable(true).size(0).requestCache(true)
                    .aggregations("held", Aggregation.of(a -> a.filters(f -> f.filters(b -> b.keyed(holding))))), Map.class);
            Aggregate held = response.aggregations().get("held");
            Set<String> found = new TreeSet<>();
            if (held != null && held.isFilters()) {
                held.filters().buckets().keyed().forEach((key, bucket) -> {
                    if (bucket.docCount() > 0) {
                        found.add(key);
                    }
                });
            }
            return found;
        } catch (IOException e) {
            throw ChunkIndex.unreachable("looking up metadata keys", e);
        }
    }

    @Override
    @SuppressWarnings("rawtypes")
    public List<Value> values(String collection, String key, String query, int size) {
        Query scope = query == null || query.isBlank() ? Query.of(q -> q.matchAll(m -> m))
                : Query.of(q -> q.multiMatch(m -> m.query(query).type(TextQueryType.MostFields).fields(OpenSearchLexicalIndex.SEARCH_FIELDS)));
        try {
            SearchResponse<Map> response = client.search(s -> {
                s.index(ChunkIndex.name(collection)).ignoreUnavailable(true).size(0).query(scope);
                KINDS.keySet().forEach(kind -> s.aggregations(kind, Aggregation.of(a -> a
                        .terms(t -> t.field(kind + "." + key).size(size).order(List.of(Map.of("documents", SortOrder.Desc))))
                        .aggregations("documents", Aggregation.of(c -> c.cardinality(d -> d.field("documentId")
                                .precisionThreshold(EXACT_DOCUMENTS)))))));
                return s;
            }, Map.class);
            List<Value> values = new ArrayList<>();
            KINDS.forEach((kind, name) -> {
                Aggregate aggregate = response.aggregations().get(kind);
                if (aggregate == null) {
                    return;
                }
                if (aggregate.isSterms()) {
                    aggregate.sterms().buckets().array().forEach(b -> values.add(
                            new Value(b.key(), name, b.aggregations().get("documents").cardinality().value())));
                } else if (aggregate.isDterms()) {
                    aggregate.dterms().buckets().array().forEach(b -> values.add(new Value(kind.equals(OpenSearchFilters.DATES)
                            ? Instant.ofEpochMilli((long) b.key()).toString() : number(b.key()), name,
                            b.aggregations().get("documents").cardinality().value())));
                } else if (aggregate.isLterms()) {
                    aggregate.lterms().buckets().array().forEach(b -> {
                        long bucket = b.key().isSigned() ? b.key().signed() : Long.parseLong(b.key().unsigned());
                        values.add(new Value(kind.equals(OpenSearchFilters.DATES) ? Instant.ofEpochMilli(bucket).toString() : bucket, name,
                                b.aggregations().get("documents").cardinality().value()));
                    });
                }
            });
            values.sort(Comparator.comparingLong(Value::count).reversed());
            return values.size() > size ? List.copyOf(values.subList(0, size)) : values;
        } catch (IOException e) {
            throw ChunkIndex.unreachable("counting the values of " + key, e);
        }
    }

    /** A whole double as a long (2026, not 2026.0), as the metadata was given. */
    private static Object number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? (Object) (long) value : value;
    }
}
