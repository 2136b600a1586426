package dev.openrag.query.search;

import java.util.List;

/**
 * {@code POST /api/search} body; null fields take their defaults. {@code scopes} limits the pinned
 * memories and corrections that come back with the results (absent: every scope).
 */
public record SearchRequest(String query, Integer k, String collection, String mode, Boolean rerank, Boolean explain,
                            Integer maxHops, List<String> scopes) {

    public SearchRequest(String query, Integer k, String collection, String mode) {
        this(query, k, collection, mode, null, null, null, null);
    }
}
