package dev.openrag.query.search;

/** {@code POST /api/search} body; null fields take their defaults. */
public record SearchRequest(String query, Integer k, String collection, String mode, Boolean rerank, Boolean explain,
                            Integer maxHops) {
}
