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
     * see half made, and a delete's record outlives the Document. Properties: entered; per store
     * stored_<store> (the version) and storedAt_<store> (when it arrived), or deleted_<store> (the
     * latest delete's time); enteredAt (when the entered version arrived; absent on records made before it was kept). Each check-and-write is one transaction that takes the node's write lock
     * first ({@code SET v._lock}), as Neo4jDocumentTexts does, so a write and a delete cannot both pass
     * their checks on the same old state.
     */
    @Override
    public void versionEntered(String collection, String documentId, String version, long arrivedAt) {
        locked(collection, documentId, true, (tx, v) -> {
            set(tx, collection, documentId, Map.of("entered", version, "enteredAt", arrivedAt));
            return true;
        });
    }

    @Override
    public boolean mayWrite(String collection, String documentId, String store, long arrivedAt) {
        try (Session session = driver.session()) {
            // refused: a delete made at or after this version arrived, or a newer version already stored there (a
            // redriven or replayed older event); the same version again (a redelivery) may write
            List<Boolean> refused = session.run("""
                    MATCH (v:DocumentVersion {uid: $uid})
                    RETURN coalesce(v['deleted_' + $store] >= $arrivedAt, false)
                        OR coalesce(v['storedAt_' + $store] > $arrivedAt, false) AS refused""",
                    Map.of("uid", uid(collection, documentId), "store", store, "arrivedAt", arrivedAt))
                    .list(r -> r.get("refused").asBoolean());
            return refused.isEmpty() || !refused.get(0);
        }
    }

    @Override
    public boolean versionStored(String collection, String documentId, String store, String version, long arrivedAt) {
        return locked(collection, documentId, false, (tx, v) -> {
            if (v == null) {
                return true;
            }
            if (!v.get("deleted_" + store).isNull() && v.get("deleted_" + store).asLong() >= arrivedAt) {
                return false;
            }
            set(tx, collection, documentId, Map.of("stored_" + store, version, "storedAt_" + store, arrivedAt));
            return true;
        });
    }

    @Override
    public boolean deleteVersion(String collection, String documentId, Collection<String> stores, long deletedAt) {
        return locked(collection, documentId, true, (tx, v) -> {
            if (stores.stream().anyMatch(store -> !v.get("storedAt_" + store).isNull() && v.get("storedAt_" + store).asLong() > deletedAt)) {
                return false;
            }
            Map<String, Object> changes = new HashMap<>();
            for (String store : stores) {
                changes.put("deleted_" + store, v.get("deleted_" + store).isNull() ? deletedAt : Math.max(deletedAt, v.get("deleted_" + store).asLong()));
                changes.put("stored_" + store, null);
                changes.put("storedAt_" + store, null);
            }
            set(tx, collection, documentId, changes);
            return true;
        });
    }

    @Override
    public boolean claimInPlace(String collection, String documentId, Collection<String> stores, String version, long arrivedAt) {
        return locked(collection, documentId, false, (tx, v) -> {
            if (v == null || v.get("entered").isNull()
                    || !stores.stream().allMatch(store -> v.get("entered").equals(v.get("stored_" + store)))) {
                return false;
            }
            Map<String, Object> changes = new HashMap<>();
            changes.put("entered", version);
            changes.put("enteredAt", arrivedAt);
            stores.forEach(store -> {
                changes.put("stored_" + store, version);
                changes.put("storedAt_" + store, arrivedAt);
            });
            set(tx, collection, documentId, changes);
            return true;
        });
    }

    /**
     * What a sweep may remove: a record that holds no stored version, has a delete, every delete made before
     * {@code $before}, and no version entered after any of them (one still on its way: its store needs the record
     * to keep an older, replayed version out, and a delete made before it must not remove it).
     */
    private static final String SWEEPABLE = """
            none(k IN keys(v) WHERE k STARTS WITH 'stored_')
              AND any(k IN keys(v) WHERE k STARTS WITH 'deleted_')
              AND all(k IN keys(v) WHERE NOT k STARTS WITH 'deleted_' OR v[k] < $before)
              AND (v.enteredAt IS NULL OR all(k IN keys(v) WHERE NOT k STARTS WITH 'deleted_' OR v[k] >= v.enteredAt))""";

    /**
     * One transaction: the candidates are found and write-locked ({@code SET v._lock}, as every check-and-write here
     * does), then looked at again and removed only if they still qualify. A version stored or entered by a write that
     * committed between the first look and the lock is seen by the second, in a statement of its own (so no value
     * read before the lock is reused); a write after the lock waits for the removal and finds no record (a delete's
     * record is then made anew by {@link #deleteVersion}).
     */
    @Override
    public int sweepDeletes(long before, int limit) {
        if (limit <= 0) {
            return 0;
        }
        try (Session session = driver.session()) {
            return session.executeWrite(tx -> {
                List<String> locked = tx.run("MATCH (v:DocumentVersion) WHERE " + SWEEPABLE + """

                        WITH v LIMIT $limit
                        SET v._lock = true
                        RETURN v.uid AS uid""", Map.of("before", before, "limit", limit)).list(r -> r.get("uid").asString());
                if (locked.isEmpty()) {
                    return 0;
                }
                int removed = tx.run("UNWIND $uids AS uid MATCH (v:DocumentVersion {uid: uid}) WHERE " + SWEEPABLE + """

                        DETACH DELETE v
                        RETURN count(*) AS removed""", Map.of("uids", locked, "before", before)).single().get("removed").asInt();
                tx.run("UNWIND $uids AS uid MATCH (v:DocumentVersion {uid: uid}) REMOVE v._lock", Map.of("uids", locked)).consume();
                return removed;
            });
        }
    }

    /** A check-and-write on the document's version node, under its write lock; {@code v} is null when there is none (and none is made). */
    private boolean locked(String collection, String documentId, boolean create,
                           java.util.function.BiFunction<org.neo4j.driver.TransactionContext, org.neo4j.driver.types.Node, Boolean> work) {
        Map<String, Object> params = Map.of("uid", uid(collection, documentId), "collection", collection, "documentId", documentId);
        try (Session session = driver.session()) {
            return session.executeWrite(tx -> {
                String lock = create ? """
                        MERGE (v:DocumentVersion {uid: $uid})
                        ON CREATE SET v.collection = $collection, v.documentId = $documentId
                        SET v._lock = true""" : """
                        MATCH (v:DocumentVersion {uid: $uid})
                        SET v._lock = true""";
                tx.run(lock, params).consume();
                // read in a statement of its own, under the lock: a sweep that removed the record while this waited
                // leaves a node that is gone (Neo4j drops writes to it without a word); then it is taken again (made
                // anew where create), as if there had been none
                List<org.neo4j.driver.types.Node> found = read(tx, params);
                if (found.isEmpty() && create) {
                    tx.run(lock, params).consume();
                    found = read(tx, params);
                }
                boolean done = work.apply(tx, found.isEmpty() ? null : found.get(0));
                tx.run("MATCH (v:DocumentVersion {uid: $uid}) REMOVE v._lock", params).consume();
                return done;
            });
        }
    }

    private static List<org.neo4j.driver.types.Node> read(org.neo4j.driver.TransactionContext tx, Map<String, Object> params) {
        return tx.run("MATCH (v:DocumentVersion {uid: $uid}) RETURN v", params).list(r -> r.get("v").asNode());
    }

    private static void set(org.neo4j.driver.TransactionContext tx, String collection, String documentId, Map<String, Object> changes) {
        tx.run("MATCH (v:DocumentVersion {uid: $uid}) SET v += $changes",
                Map.of("uid", uid(collection, documentId), "changes", changes)).consume();
    }

    private static String uid(String collection, String documentId) {
        return collection + "/" + documentId;
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
