package dev.openrag.knowledge.neo4j;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.schemas.Metadata;

/**
 * Caller metadata ({@link Metadata}) as properties of a Neo4j node, and {@link DocumentFilter}s as
 * Cypher over them; shared by documents ({@link Neo4jDocumentMetadata}) and agent memories. Each key
 * is kept in a property of its value's kind, {@code meta_s_<key>} (strings, always a list so that a
 * list value and a single string filter alike), {@code meta_n_<key>} (a number) and
 * {@code meta_d_<key>} (a datetime), so comparisons are typed and a key whose kind differs between
 * nodes is never coerced; {@code meta_dl_<key>} holds the items of a list that read as dates, so
 * that date conditions match a list by any of its items; {@code metadataJson} keeps the whole map
 * for returning it. Property names
 * (checked plain keys) and values go in as parameters, never spliced into the query.
 */
public final class MetadataCypher {

    public static final String STRINGS = "meta_s_";
    public static final String NUMBER = "meta_n_";
    public static final String DATE = "meta_d_";
    public static final String LIST_DATES = "meta_dl_";
    /** The property holding the whole map as JSON. */
    public static final String JSON_PROPERTY = "metadataJson";

    private static final ObjectMapper JSON = new ObjectMapper();

    private MetadataCypher() {
    }

    /** The typed {@code meta_*} properties of normalised metadata. */
    public static Map<String, Object> properties(Map<String, Object> normalised) {
        Map<String, Object> properties = new HashMap<>();
        normalised.forEach((key, value) -> {
            switch (Metadata.kindOf(value)) {
                case DATE -> properties.put(DATE + key, ((Instant) value).atZone(ZoneOffset.UTC));
                case NUMBER -> properties.put(NUMBER + key, value);
                case STRING -> properties.put(STRINGS + key, value instanceof List<?> list ? list : List.of(value));
            }
            List<Instant> dates = Metadata.datesIn(value);
            if (!dates.isEmpty()) {
                properties.put(LIST_DATES + key, dates.stream().map(date -> date.atZone(ZoneOffset.UTC)).toList());
            }
        });
        return properties;
    }

    /** Normalised metadata as the JSON kept in {@value #JSON_PROPERTY} (dates as ISO-8601 instants). */
    public static String json(Map<String, Object> normalised) {
        try {
            return JSON.writeValueAsString(Metadata.toJson(normalised));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("metadata cannot be written as JSON", e);
        }
    }

    /** A node's {@value #JSON_PROPERTY} as a map (null or absent: empty). */
    public static Map<String, Object> fromJson(String json) {
        if (json == null) {
            return Map.of();
        }
        try {
            return JSON.readValue(json, new TypeReference<>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored metadataJson is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The filter as a Cypher predicate on the node bound to {@code node}; adds its parameters to {@code params}.
     * {@code stringLists}: keys the node keeps in a plain property of its own, a list of strings (a memory's
     * {@code tags}), instead of {@code meta_s_<key>}; a key there exists when its list is not empty.
     */
    public static String where(DocumentFilter filter, String node, Map<String, String> stringLists, Map<String, Object> params) {
        return new Translation(node, stringLists, params).cypher(filter);
    }

    private record Translation(String node, Map<String, String> stringLists, Map<String, Object> params) {

        String cypher(DocumentFilter filter) {
            return switch (filter) {
                case DocumentFilter.All all -> all.filters().isEmpty() ? "true"
                        : all.filters().stream().map(f -> "(" + cypher(f) + ")").collect(Collectors.joining(" AND "));
                case DocumentFilter.Any any -> any.filters().stream().map(f -> "(" + cypher(f) + ")").collect(Collectors.joining(" OR "));
                case DocumentFilter.Equals equals -> equals(equals.key(), equals.value());
                case DocumentFilter.NotEquals not -> "NOT coalesce(" + equals(not.key(), not.value()) + ", false)";
                case DocumentFilter.In in -> in(in);
                case DocumentFilter.Exists exists -> (exists.present() ? "" : "NOT ") + exists(exists.key());
                case DocumentFilter.Prefix prefix -> "any(s IN coalesce(" + strings(prefix.key()) + ", []) WHERE s STARTS WITH "
                        + param(prefix.prefix()) + ")";
                case DocumentFilter.Range range -> range(range);
            };
        }

        private String exists(String key) {
            if (stringLists.containsKey(key)) {
                return "(size(coalesce(" + strings(key) + ", [])) > 0)";
            }
            return "(" + strings(key) + " IS NOT NULL OR " + property(NUMBER + key) + " IS NOT NULL OR "
                    + property(DATE + key) + " IS NOT NULL)";
        }

        /**
         * One list parameter per kind of value, whatever the list's length: a predicate of one term per
         * value would grow the query (and its planning, repeated wherever the filter is applied) with it.
         */
        private String in(DocumentFilter.In in) {
            Map<Metadata.Kind, List<Object>> byKind = new EnumMap<>(Metadata.Kind.class);
            in.values().forEach(value -> byKind.computeIfAbsent(Metadata.kindOf(value), kind -> new ArrayList<>())
                    .add(value instanceof Instant instant ? instant.atZone(ZoneOffset.UTC) : value));
            List<String> any = new ArrayList<>();
            byKind.forEach((kind, values) -> any.add(switch (kind) {
                case STRING -> "any(s IN coalesce(" + strings(in.key()) + ", []) WHERE s IN " + param(values) + ")";
                case NUMBER -> "coalesce(" + property(NUMBER + in.key()) + " IN " + param(values) + ", false)";
                case DATE -> {
                    String dates = param(values);
                    yield "coalesce(" + property(DATE + in.key()) + " IN " + dates + ", false) OR any(x IN coalesce("
                            + property(LIST_DATES + in.key()) + ", []) WHERE x IN " + dates + ")";
                }
            }));
            return String.join(" OR ", any);
        }

        private String equals(String key, Object value) {
            return switch (Metadata.kindOf(value)) {
                case STRING -> param(value) + " IN coalesce(" + strings(key) + ", [])";
                case NUMBER -> property(NUMBER + key) + " = " + param(value);
                case DATE -> {
                    String date = param(((Instant) value).atZone(ZoneOffset.UTC));
                    yield "(coalesce(" + property(DATE + key) + " = " + date + ", false) OR " + date + " IN coalesce("
                            + property(LIST_DATES + key) + ", []))";
                }
            };
        }

        private String range(DocumentFilter.Range range) {
            Object any = range.gte() != null ? range.gte() : range.gt() != null ? range.gt() : range.lte() != null ? range.lte() : range.lt();
            String single = bounds(range, property((any instanceof Instant ? DATE : NUMBER) + range.key()));
            return any instanceof Instant
                    ? "(" + single + ") OR any(x IN coalesce(" + property(LIST_DATES + range.key()) + ", []) WHERE " + bounds(range, "x") + ")"
                    : single;
        }

        private String bounds(DocumentFilter.Range range, String value) {
            List<String> bounds = new ArrayList<>();
            bounds.add(value + " IS NOT NULL");
            addBound(bounds, value, ">=", range.gte());
            addBound(bounds, value, ">", range.gt());
            addBound(bounds, value, "<=", range.lte());
            addBound(bounds, value, "<", range.lt());
            return String.join(" AND ", bounds);
        }

        private void addBound(List<String> bounds, String property, String operator, Object value) {
            if (value != null) {
                bounds.add(property + " " + operator + " " + param(value instanceof Instant instant ? instant.atZone(ZoneOffset.UTC) : value));
            }
        }

        /** The property holding the key's strings. */
        private String strings(String key) {
            String own = stringLists.get(key);
            return own != null ? property(own) : property(STRINGS + key);
        }

        private String property(String name) {
            return node + "[" + param(name) + "]";
        }

        private String param(Object value) {
            String name = "p" + params.size();
            params.put(name, value);
            return "$" + name;
        }
    }
}
