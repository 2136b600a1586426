package dev.openrag.ingest.credentials;

import java.util.List;

/**
 * A named set of login values an admin stored for crawls ({@code /api/credentials}): which collections'
 * crawls may use it, and the names of its fields. Its values are sealed at rest and never answered.
 */
public record Credential(String name, List<String> collections, List<String> fields, String createdAt) {

    /** Whether a crawl into {@code collection} may use it. */
    public boolean serves(String collection) {
        return collections.contains("*") || collections.contains(collection);
    }
}
