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

    /*
     * The versions live on a (:DocumentVersion) node of their own, not the Document node: the parse
     * stage records a version before the Neo4j sink has created its Document, which browsing must not
     * see half made. Properties: entered, and stored_<store> per store.
     */
    @Override
    public void versionEntered(String collection, String documentId, String version) {
        writeVersion(collection, documentId, Map.of("entered", version));
    }

    @Override
    public void versionStored(String collection, String documentId, String store, String version) {
        writeVersion(collection, documentId, Map.of("stored_" + store, version));
    }

    private void writeVersion(String collection, String documentId, Map<String, Object> properties) {
        try (Session session = driver.session()) {
            session.executeWriteWithoutResult(tx -> tx.run("""
                    MERGE (v:DocumentVersion {uid: $uid})
                    SET v.collection = $collection, v.documentId = $documentId, v += $properties""",
                    Map.of("uid", collection + "/" + documentId, "collection", collection, "documentId", documentId,
                            "properties", properties)).consume());
        }
    }

    @Override
    public boolean versionSettled(String collection, String documentId, Collection<String> stores) {
        try (Session session = driver.session()) {
            List<Boolean> settled = session.run("""
                    MATCH (v:DocumentVersion {uid: $uid})
                    RETURN v.entered IS NOT NULL AND all(store IN $stores WHERE v['stored_' + store] = v.entered) AS settled""",
                    Map.of("uid", collection + "/" + documentId, "stores", List.copyOf(stores))).list(r -> r.get("settled").asBoolean());
            return !settled.isEmpty() && settled.get(0);
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
