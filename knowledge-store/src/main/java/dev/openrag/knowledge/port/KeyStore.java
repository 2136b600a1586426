package dev.openrag.knowledge.port;

import java.util.List;
import java.util.Optional;

import dev.openrag.knowledge.access.ApiKey;

/** Where API keys live (Neo4j), shared by every app so that a key works, and is revoked, everywhere. */
public interface KeyStore {

    /** The key in force whose secret hashes to {@code hash}; empty for unknown or revoked keys. */
    Optional<ApiKey> findActive(String hash);

    /** Stores a new key under the hash of its secret. */
    void create(ApiKey key, String hash);

    /** Every key, newest first, revoked ones included. */
    List<ApiKey> list();

    /** Revokes a key; false when there is no key with that id. */
    boolean revoke(String id);
}
