package dev.openrag.knowledge.neo4j;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.knowledge.port.DocumentMetadataStore;
import dev.openrag.schemas.Metadata;

/**
 * Metadata as properties of the {@code Document} node: each key in a property of its value's kind,
 * {@code meta_s_<key>} (strings, always a list so that a list value and a single string filter
 * alike), {@code meta_n_<key>} (a number) and {@code meta_d_<key>} (a datetime), so comparisons are
 * typed and a key whose kind differs between documents is never coerced; {@code metadataJson} keeps
 * the whole map for returning it. Filters become a WHERE over the collection's documents, with the
 * property names (checked plain keys) and values as parameters, never spliced into the query.
 */
public final class Neo4jDocumentMetadata implements DocumentMetadataStore {

    static final String STRINGS = "meta_s_";
    static final String NUMBER = "meta_n_";
    static final String DATE = "meta_d_";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Driver driver;

    public Neo4jDocumentMetadata(Driver driver) {
        this.driver = driver;
    }

    @Override
    public void replaceMetadata(String collection, String documentId, Map<String, Object> metadata) {
        Map<String, Object> normalised = Metadata.normalise(metadata, true);
        Map<String, Object> properties = new HashMap<>();
        normalised.forEach((key, value) -> {
            switch (Metadata.kindOf(value)) {
                case DATE -> properties.put(DATE + key, ((Instant) value).atZone(ZoneOffset.UTC));
                case NUMBER -> properties.put(NUMBER + key, value);
                case STRING -> properties.put(STRINGS + key, value instanceof List<?> list ? list : List.of(value));
            }
        });
        String json;
        try {
            json = JSON.writeValueAsString(Metadata.toJson(normalised));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("metadata of " + documentId + " cannot be written as JSON", e);
        }
        Map<String, Object> params = Map.of("collection", collection, "documentId", documentId);
        try (Session session = driver.session()) {
            session.executeWriteWithoutResult(tx -> {
                List<String> old = tx.run("""
                        MATCH (d:Document {collection: $collection, documentId: $documentId})
                        RETURN [k IN keys(d) WHERE k STARTS WITH 'meta_'] AS old""", params)
                        .list(r -> r.get("old").asList(v -> v.asString())).stream().flatMap(List::stream).toList();
                Map<String, Object> changes = new HashMap<>();
                old.forEach(key -> changes.put(key, null)); // += with null removes what the new metadata no longer has
                changes.putAll(properties);
                changes.put("metadataJson", normalised.isEmpty() ? null : json);
                Map<String, Object> write = new HashMap<>(params);
                write.put("changes", changes);
                tx.run("""
                        MATCH (d:Document {collection: $collection, documentId: $documentId})
                        SET d += $changes""", write).consume();
            });
        }
    }

    @Override
    public java.util.Optional<StoredVersion> storedVersion(String collection, String documentId) {
        try (Session session = driver.session()) {
            List<StoredVersion> found = session.run("""
                    MATCH (d:Document {collection: $collection, documentId: $documentId})
                    RETURN d.contentHash AS hash, d.title AS title, coalesce(d.chunkCount, 0) AS chunks, d.metadataJson AS json""",
                    Map.of("collection", collection, "documentId", documentId)).list(r -> new StoredVersion(
                            r.get("hash").isNull() ? null : r.get("hash").asString(), r.get("title").isNull() ? null : r.get("title").asString(),
                            r.get("chunks").asInt(), fromJson(r.get("json").isNull() ? null : r.get("json").asString())));
            return found.stream().findFirst();
        }
    }

    @Override
    public Set<String> matching(String collection, DocumentFilter filter) {
        Map<String, Object> params = new HashMap<>();
        params.put("collection", collection);
        String where = cypher(filter, params);
        try (Session session = driver.session()) {
            return session.run("MATCH (d:Document {collection: $collection}) WHERE " + where + " RETURN d.documentId AS id", params)
                    .list(r -> r.get("id").asString()).stream().collect(Collectors.toSet());
        }
    }

    @Override
    public Map<String, Map<String, Object>> metadataOf(String collection, Collection<String> documentIds) {
        if (documentIds.isEmpty()) {
            return Map.of();
        }
        Map<String, Map<String, Object>> found = new LinkedHashMap<>();
        try (Session session = driver.session()) {
            for (Record record : session.run("""
                    UNWIND $ids AS id
                    MATCH (d:Document {collection: $collection, documentId: id})
                    WHERE d.metadataJson IS NOT NULL
                    RETURN id, d.metadataJson AS json""", Map.of("collection", collection, "ids", List.copyOf(documentIds))).list()) {
                found.put(record.get("id").asString(), fromJson(record.get("json").asString()));
            }
        }
        return found;
    }

    /** A document's {@code metadataJson} as a map (null or absent: empty). */
    static Map<String, Object> fromJson(String json) {
        if (json == null) {
            return Map.of();
        }
        try {
            return JSON.readValue(json, new TypeReference<>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a document's metadataJson is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The filter as a Cypher predicate on {@code d}; adds its parameters to {@code params}. */
    static String cypher(DocumentFilter filter, Map<String, Object> params) {
        return switch (filter) {
            case DocumentFilter.All all -> all.filters().isEmpty() ? "true"
                    : all.filters().stream().map(f -> "(" + cypher(f, params) + ")").collect(Collectors.joining(" AND "));
            case DocumentFilter.Any any -> any.filters().stream().map(f -> "(" + cypher(f, params) + ")").collect(Collectors.joining(" OR "));
            case DocumentFilter.Equals equals -> equals(equals.key(), equals.value(), params);
            case DocumentFilter.NotEquals not -> "NOT coalesce(" + equals(not.key(), not.value(), params) + ", false)";
            case DocumentFilter.In in -> in(in, params);
            case DocumentFilter.Exists exists -> (exists.present() ? "" : "NOT ") + "(d[" + param(params, STRINGS + exists.key())
                    + "] IS NOT NULL OR d[" + param(params, NUMBER + exists.key()) + "] IS NOT NULL OR d["
                    + param(params, DATE + exists.key()) + "] IS NOT NULL)";
            case DocumentFilter.Prefix prefix -> "any(s IN coalesce(d[" + param(params, STRINGS + prefix.key()) + "], []) WHERE s STARTS WITH "
                    + param(params, prefix.prefix()) + ")";
            case DocumentFilter.Range range -> range(range, params);
        };
    }

    /**
     * One list parameter per kind of value, whatever the list's length: a predicate of one term per
     * value would grow the query (and its planning, repeated wherever the filter is applied) with it.
     */
    private static String in(DocumentFilter.In in, Map<String, Object> params) {
        Map<Metadata.Kind, List<Object>> byKind = new java.util.EnumMap<>(Metadata.Kind.class);
        in.values().forEach(value -> byKind.computeIfAbsent(Metadata.kindOf(value), kind -> new ArrayList<>())
                .add(value instanceof Instant instant ? instant.atZone(ZoneOffset.UTC) : value));
        List<String> any = new ArrayList<>();
        byKind.forEach((kind, values) -> any.add(switch (kind) {
            case STRING -> "any(s IN coalesce(d[" + param(params, STRINGS + in.key()) + "], []) WHERE s IN " + param(params, values) + ")";
            case NUMBER -> "coalesce(d[" + param(params, NUMBER + in.key()) + "] IN " + param(params, values) + ", false)";
            case DATE -> "coalesce(d[" + param(params, DATE + in.key()) + "] IN " + param(params, values) + ", false)";
        }));
        return String.join(" OR ", any);
    }

    private static String equals(String key, Object value, Map<String, Object> params) {
        return switch (Metadata.kindOf(value)) {
            case STRING -> param(params, value) + " IN coalesce(d[" + param(params, STRINGS + key) + "], [])";
            case NUMBER -> "d[" + param(params, NUMBER + key) + "] = " + param(params, value);
            case DATE -> "d[" + param(params, DATE + key) + "] = " + param(params, ((Instant) value).atZone(ZoneOffset.UTC));
        };
    }

    private static String range(DocumentFilter.Range range, Map<String, Object> params) {
        Object any = range.gte() != null ? range.gte() : range.gt() != null ? range.gt() : range.lte() != null ? range.lte() : range.lt();
        String property = "d[" + param(params, (any instanceof Instant ? DATE : NUMBER) + range.key()) + "]";
        List<String> bounds = new ArrayList<>();
        bounds.add(property + " IS NOT NULL");
        addBound(bounds, property, ">=", range.gte(), params);
        addBound(bounds, property, ">", range.gt(), params);
        addBound(bounds, property, "<=", range.lte(), params);
        addBound(bounds, property, "<", range.lt(), params);
        return String.join(" AND ", bounds);
    }

    private static void addBound(List<String> bounds, String property, String operator, Object value, Map<String, Object> params) {
        if (value != null) {
            bounds.add(property + " " + operator + " " + param(params, value instanceof Instant instant ? instant.atZone(ZoneOffset.UTC) : value));
        }
    }

    private static String param(Map<String, Object> params, Object value) {
        String name = "p" + params.size();
        params.put(name, value);
        return "$" + name;
    }
}
