package dev.openrag.knowledge.access;

import java.time.Instant;
import java.util.Set;

/**
 * A stored API key as listed to admins: never its secret, only what it grants. {@code revokedAt}
 * null: in force.
 */
public record ApiKey(String id, String name, Role role, Set<String> collections, Set<String> scopes,
                     Instant createdAt, Instant revokedAt) {

    public Grant grant() {
        return new Grant(id, role, collections, scopes);
    }
}
