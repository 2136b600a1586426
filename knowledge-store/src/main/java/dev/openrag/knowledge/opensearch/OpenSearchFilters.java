package dev.openrag.knowledge.opensearch;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.opensearch.client.json.JsonData;
import org.opensearch.client.opensearch._types.FieldValue;
import org.opensearch.client.opensearch._types.query_dsl.Query;

import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.schemas.Metadata;

/**
 * Metadata in the chunk index ({@link ChunkIndex}): the fields a chunk carries for its document's
 * metadata, and a {@link DocumentFilter} as an OpenSearch query on them (for a bool filter clause).
 * Keys are checked plain names, so {@code meta_s.<key>} cannot name another field.
 */
final class OpenSearchFilters {

    static final String STRINGS = "meta_s";
    static final String NUMBERS = "meta_n";
    static final String DATES = "meta_d";
    /**
     * The items of a list value that read as dates (its strings stay in {@link #STRINGS}): a field
     * of its own, so that facets count each item once, as the string it was given.
     */
    static final String LIST_DATES = "meta_dl";
    /** Every metadata object of a chunk document. */
    static final List<String> KINDS = List.of(STRINGS, NUMBERS, DATES, LIST_DATES);

    private OpenSearchFilters() {
    }

    /** The chunk document's metadata objects, by kind ({@code meta_s}, {@code meta_n}, {@code meta_d}); empty ones left out. */
    static Map<String, Map<String, Object>> fields(Map<String, Object> metadata) {
        Map<String, Map<String, Object>> byKind = new LinkedHashMap<>();
        Metadata.normalise(metadata, true).forEach((key, value) -> {
            switch (Metadata.kindOf(value)) {
                case DATE -> byKind.computeIfAbsent(DATES, kind -> new HashMap<>()).put(key, value.toString());
                case NUMBER -> byKind.computeIfAbsent(NUMBERS, kind -> new HashMap<>()).put(key, value);
                case STRING -> byKind.computeIfAbsent(STRINGS, kind -> new HashMap<>()).put(key, value);
            }
            List<Instant> dates = Metadata.datesIn(value);
            if (!dates.isEmpty()) {
                byKind.computeIfAbsent(LIST_DATES, kind -> new HashMap<>()).put(key, dates.stream().map(Instant::toString).toList());
            }
        });
        return byKind;
    }

    /** The fields ({@code meta_s.team}, …) the metadata takes in a chunk document. */
    static java.util.Set<String> fieldNames(Map<String, Object> metadata) {
        java.util.Set<String> names = new java.util.TreeSet<>();
        fields(metadata).forEach((kind, values) -> values.keySet().forEach(key -> names.add(kind + "." + key)));
        return names;
    }

    static Query query(DocumentFilter filter) {
        return switch (filter) {
            case DocumentFilter.All all -> Query.of(q -> q.bool(b -> b.filter(all.filters().stream().map(OpenSearchFilters::query).toList())));
            case DocumentFilter.Any any -> Query.of(q -> q.bool(b -> b.should(any.filters().stream().map(OpenSearchFilters::query).toList())
                    .minimumShouldMatch("1")));
            case DocumentFilter.Equals equals -> term(equals.key(), equals.value());
            case DocumentFilter.NotEquals not -> Query.of(q -> q.bool(b -> b.mustNot(term(not.key(), not.value()))));
            case DocumentFilter.In in -> Query.of(q -> q.bool(b -> b.should(in.values().stream().map(v -> term(in.key(), v)).toList())
                    .minimumShouldMatch("1")));
            case DocumentFilter.Exists exists -> {
                List<Query> any = List.of(STRINGS, NUMBERS, DATES).stream()
                        .map(kind -> Query.of(q -> q.exists(e -> e.field(kind + "." + exists.key())))).toList();
                yield exists.present()
                        ? Query.of(q -> q.bool(b -> b.should(any).minimumShouldMatch("1")))
                        : Query.of(q -> q.bool(b -> b.mustNot(any)));
            }
            case DocumentFilter.Prefix prefix -> Query.of(q -> q.prefix(p -> p.field(STRINGS + "." + prefix.key()).value(prefix.prefix())));
            case DocumentFilter.Range range -> range(range);
        };
    }

    private static Query term(String key, Object value) {
        return switch (Metadata.kindOf(value)) {
            case STRING -> Query.of(q -> q.term(t -> t.field(STRINGS + "." + key).value(FieldValue.of((String) value))));
            case NUMBER -> Query.of(q -> q.term(t -> t.field(NUMBERS + "." + key).value(FieldValue.of(((Number) value).doubleValue()))));
            case DATE -> anyDateField(key, field -> Query.of(q -> q.range(r -> r.field(field)
                    .gte(JsonData.of(value.toString())).lte(JsonData.of(value.toString())))));
        };
    }

    /** A date condition on the key's single date or on any date item of its list. */
    private static Query anyDateField(String key, java.util.function.Function<String, Query> condition) {
        return Query.of(q -> q.bool(b -> b.should(condition.apply(DATES + "." + key), condition.apply(LIST_DATES + "." + key))
                .minimumShouldMatch("1")));
    }

    private static Query range(DocumentFilter.Range range) {
        Object any = range.gte() != null ? range.gte() : range.gt() != null ? range.gt() : range.lte() != null ? range.lte() : range.lt();
        return any instanceof Instant ? anyDateField(range.key(), field -> range(field, range)) : range(NUMBERS + "." + range.key(), range);
    }

    private static Query range(String field, DocumentFilter.Range range) {
        return Query.of(q -> q.range(r -> {
            r.field(field);
            if (range.gte() != null) {
                r.gte(json(range.gte()));
            }
            if (range.gt() != null) {
                r.gt(json(range.gt()));
            }
            if (range.lte() != null) {
                r.lte(json(range.lte()));
            }
            if (range.lt() != null) {
                r.lt(json(range.lt()));
            }
            return r;
        }));
    }

    private static JsonData json(Object bound) {
        return bound instanceof Instant instant ? JsonData.of(instant.toString()) : JsonData.of(((Number) bound).doubleValue());
    }
}
