package dev.openrag.knowledge.neo4j;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;

import dev.openrag.knowledge.access.ApiKey;
import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.port.KeyStore;

/** {@link KeyStore} on Neo4j: one {@code :ApiKey} node a key, found by the unique hash of its secret. */
public final class Neo4jKeyStore implements KeyStore {

    private static final String FIELDS = "k.id AS id, k.name AS name, k.role AS role, k.collections AS collections, "
            + "k.scopes AS scopes, k.createdAt AS createdAt, k.revokedAt AS revokedAt";

    private final Driver driver;

    public Neo4jKeyStore(Driver driver) {
        this.driver = driver;
    }

    @Override
    public Optional<ApiKey> findActive(String hash) {
        try (Session session = driver.session()) {
            return session.executeRead(tx -> tx.run("MATCH (k:ApiKey {hash: $hash}) WHERE k.revokedAt IS NULL RETURN " + FIELDS,
                    Map.of("hash", hash)).list()).stream().findFirst().map(Neo4jKeyStore::key);
        }
    }

    @Override
    public void create(ApiKey key, String hash) {
        Map<String, Object> params = new HashMap<>();
        params.put("id", key.id());
        params.put("name", key.name());
        params.put("role", key.role().id());
        params.put("collections", List.copyOf(key.collections()));
        params.put("scopes", List.copyOf(key.scopes()));
        params.put("createdAt", key.createdAt().toEpochMilli());
        params.put("hash", hash);
        try (Session session = driver.session()) {
            session.executeWriteWithoutResult(tx -> tx.run("""
                    CREATE (:ApiKey {id: $id, name: $name, role: $role, collections: $collections, scopes: $scopes,
                                     createdAt: $createdAt, hash: $hash})""", params).consume());
        }
    }

    @Override
    public List<ApiKey> list() {
        try (Session session = driver.session()) {
            return session.executeRead(tx -> tx.run("MATCH (k:ApiKey) RETURN " + FIELDS + " ORDER BY k.createdAt DESC, k.id")
                    .list(Neo4jKeyStore::key));
        }
    }

    @Override
    public boolean revoke(String id) {
        try (Session session = driver.session()) {
            return session.executeWrite(tx -> tx.run("""
                    MATCH (k:ApiKey {id: $id}) SET k.revokedAt = coalesce(k.revokedAt, $now) RETURN count(k) AS n""",
                    Map.of("id", id, "now", System.currentTimeMillis())).single().get("n").asLong()) > 0;
        }
    }

    private static ApiKey key(Record row) {
        return new ApiKey(row.get("id").asString(), row.get("name").asString(null), Role.of(row.get("role").asString()),
                Set.copyOf(row.get("collections").asList(Value::asString)), Set.copyOf(row.get("scopes").asList(Value::asString)),
                Instant.ofEpochMilli(row.get("createdAt").asLong()),
                row.get("revokedAt").isNull() ? null : Instant.ofEpochMilli(row.get("revokedAt").asLong()));
    }
}
