package dev.openrag.knowledge.port;

import java.util.List;
import java.util.Set;

/**
 * What documents' metadata holds across a collection: the keys any document has (to tell a filter
 * that names a key no document has) and the values of one key with how many documents have each
 * (the UI's filter chips, {@code GET /api/facets}).
 */
public interface MetadataFacets {

    /** The metadata keys (caller keys and source fields) at least one of the collection's documents has; empty for an unknown collection. */
    Set<String> keys(String collection);

    /** Those of {@code keys} that at least one of the collection's documents has (a filter's keys, for its unknown-key notice). */
    Set<String> held(String collection, java.util.Collection<String> keys);

    /**
     * The key's most frequent values, at most {@code size}, each with how many documents have it, most
     * first; only among the chunks that match {@code query} (null: all). Strings, numbers and dates
     * are each counted apart ({@link Value#kind}).
     */
    List<Value> values(String collection, String key, String query, int size);

    /** One value of a key: {@code count}: how many documents have it; {@code kind}: string, number or date (dates as ISO-8601 instants). */
    record Value(Object value, String kind, long count) {
    }
}
