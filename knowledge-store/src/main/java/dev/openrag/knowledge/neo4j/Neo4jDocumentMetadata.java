package dev.openrag.knowledge.neo4j;

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

import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.knowledge.port.DocumentMetadataStore;
import dev.openrag.schemas.Metadata;

/**
 * Metadata as properties of the {@code Document} node, as {@link MetadataCypher} keeps and filters
 * them (typed {@code meta_*} properties and {@code metadataJson}). Filters become a WHERE over the
 * collection's documents.
 */
public final class Neo4jDocumentMetadata implements DocumentMetadataStore {

    private final Driver driver;

    public Neo4jDocumentMetadata(Driver driver) {
        this.driver = driver;
    }

    @Override
    public void replaceMetadata(String collection, String documentId, Map<String, Object> metadata) {
        Map<String, Object> normalised = Metadata.normalise(metadata, true);
        Map<String, Object> properties = MetadataCypher.properties(normalised);
        String json = MetadataCypher.json(normalised);
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
        return MetadataCypher.fromJson(json);
    }

    /** The filter as a Cypher predicate on {@code d}; adds its parameters to {@code params}. */
    static String cypher(DocumentFilter filter, Map<String, Object> params) {
        return MetadataCypher.where(filter, "d", Map.of(), params);
    }
}
