package dev.openrag.knowledge.access;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What a key may do, each role including the ones before it: {@code read} (search, ask, browse,
 * graph, job status), {@code write} (ingest, delete, crawl, feedback, memories) and {@code admin}
 * (keys, dead letters, every collection and scope).
 */
public enum Role {
    READ, WRITE, ADMIN;

    /** The security role name resources name in {@code @RolesAllowed}. */
    public static final String READER = "read";
    public static final String WRITER = "write";
    public static final String ADMINISTRATOR = "admin";

    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean includes(Role other) {
        return compareTo(other) >= 0;
    }

    /** Parses {@code read}, {@code write} or {@code admin}; anything else is a clear error. */
    @JsonCreator
    public static Role of(String id) {
        if (id != null) {
            for (Role role : values()) {
                if (role.id().equals(id.strip().toLowerCase(Locale.ROOT))) {
                    return role;
                }
            }
        }
        throw new IllegalArgumentException("'role' must be read, write or admin, not '" + id + "'");
    }
}
