package dev.openrag.knowledge.runtime.auth;

import java.util.Optional;
import java.util.Set;

import jakarta.inject.Singleton;

import dev.openrag.knowledge.access.ApiKey;
import dev.openrag.knowledge.access.Grant;
import dev.openrag.knowledge.access.KeySecrets;
import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.port.KeyStore;

/**
 * Turns a presented secret into what it grants: the configured admin key, or a key in the shared
 * {@link KeyStore}. No cache: a revoked key stops working at the next request in every app.
 */
@Singleton
public class Authenticator {

    private static final Grant ADMIN_KEY = new Grant("admin-key", Role.ADMIN, Set.of(Grant.ANY), Set.of(Grant.ANY));

    private final AuthSettings settings;
    private final KeyStore keys;

    public Authenticator(AuthSettings settings, KeyStore keys) {
        this.settings = settings;
        this.keys = keys;
    }

    public boolean enabled() {
        return settings.on();
    }

    /** The grant of a secret; empty for an unknown or revoked one. Blocks on Neo4j: not on an event loop. */
    public Optional<Grant> grantOf(String secret) {
        if (secret == null || secret.isBlank()) {
            return Optional.empty();
        }
        Optional<String> admin = settings.adminKey().filter(key -> !key.isBlank());
        if (admin.isPresent() && KeySecrets.same(admin.get(), secret)) {
            return Optional.of(ADMIN_KEY);
        }
        return keys.findActive(KeySecrets.hash(secret)).map(ApiKey::grant);
    }
}
