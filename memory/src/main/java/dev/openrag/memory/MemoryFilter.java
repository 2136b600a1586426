package dev.openrag.memory;

import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.knowledge.filter.DocumentFilters;
import dev.openrag.knowledge.neo4j.MetadataCypher;
import dev.openrag.schemas.Metadata;

/**
 * A memory's caller metadata and the {@code filter} of memory search and listing: the same rules and
 * the same JSON form as documents' ({@link Metadata}, {@link DocumentFilters}), with the memory's
 * {@code tags} as one more field, a list of strings: equality means "has this tag", {@code in} "has
 * one of them", {@code not} "lacks it", {@code exists} "has any tag", {@code prefix} "has a tag
 * starting so". A memory's metadata may use a document's source field names (no pipeline fills them
 * on a memory); only {@code tags} is reserved (in any case), with the filter's own words, and all of it counts
 * towards {@link Metadata#maxTotalBytes()}.
 */
public final class MemoryFilter {

    /** The memory's own list field a filter can name. */
    public static final String TAGS = "tags";

    private MemoryFilter() {
    }

    /**
     * The caller's metadata checked and normalised as a document's ({@link Metadata#normalise}), in its JSON form
     * (dates as ISO-8601 instants), as a memory carries it; null or empty: none.
     *
     * @throws IllegalArgumentException naming the key and the rule it breaks
     */
    public static Map<String, Object> metadata(Map<String, ?> metadata) {
        if (metadata == null || metadata.isEmpty()) {
            return Map.of();
        }
        // in any case: "Tags" would be a second field that reads as the tags in filters and hits (equalsIgnoreCase
        // compares characters without the default locale's rules, so a Turkish default changes nothing)
        for (String key : metadata.keySet()) {
            if (TAGS.equalsIgnoreCase(key)) {
                throw new IllegalArgumentException("metadata key '" + key + "' is " + (TAGS.equals(key) ? "" : "in another case ")
                        + "reserved: a memory's tags are its own argument 'tags'");
            }
        }
        if (metadata.size() > Metadata.MAX_KEYS) {
            throw new IllegalArgumentException("metadata has " + metadata.size() + " keys; at most " + Metadata.MAX_KEYS + " are allowed");
        }
        return Metadata.toJson(Metadata.withinTotal(Metadata.normalise(metadata, true), true));
    }

    /**
     * The filter ({@link DocumentFilters#parse}; null: none), with {@code tags} only compared with strings.
     *
     * @throws IllegalArgumentException naming the place in the filter and the rule it breaks
     */
    public static DocumentFilter parse(JsonNode json) {
        DocumentFilter filter = DocumentFilters.parse(json);
        if (filter != null) {
            checkTags(filter);
        }
        return filter;
    }

    /** The filter as a Cypher predicate on the memory {@code m}; adds its parameters to {@code params}. */
    public static String cypher(DocumentFilter filter, Map<String, Object> params) {
        return MetadataCypher.where(filter, "m", Map.of(TAGS, TAGS), params);
    }

    private static void checkTags(DocumentFilter filter) {
        switch (filter) {
            case DocumentFilter.All all -> all.filters().forEach(MemoryFilter::checkTags);
            case DocumentFilter.Any any -> any.filters().forEach(MemoryFilter::checkTags);
            case DocumentFilter.Equals equals -> tag(equals.key(), equals.value(), "");
            case DocumentFilter.NotEquals not -> tag(not.key(), not.value(), ".not");
            case DocumentFilter.In in -> in.values().forEach(value -> tag(in.key(), value, ".in"));
            case DocumentFilter.Range range -> {
                if (TAGS.equals(range.key())) {
                    throw new IllegalArgumentException("filter.tags: tags are strings, they have no range; use equality, in, not, exists or prefix");
                }
            }
            case DocumentFilter.Exists exists -> { }
            case DocumentFilter.Prefix prefix -> { }
        }
    }

    private static void tag(String key, Object value, String operator) {
        if (TAGS.equals(key) && !(value instanceof String)) {
            throw new IllegalArgumentException("filter.tags" + operator + ": tags are strings, got "
                    + (value instanceof Number ? "a number" : "a date (a tag that reads as an ISO-8601 date cannot be filtered on)"));
        }
    }
}
