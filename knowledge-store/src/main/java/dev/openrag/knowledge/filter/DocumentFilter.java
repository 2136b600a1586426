package dev.openrag.knowledge.filter;

import java.util.List;

/**
 * A condition on a document's metadata (caller keys and source fields alike), parsed and checked
 * once by {@link DocumentFilters} and translated by each store's adapter into its own query.
 * Scalar values are normalised as {@link dev.openrag.schemas.Metadata} keeps them: a string, a
 * number (long or double) or a date ({@link java.time.Instant}); each store keeps each kind in its
 * own typed field, so a key that is a number in one document and a string in another is compared
 * by kind and never coerced.
 */
public sealed interface DocumentFilter {

    /** The value, or one item of a list value, equals {@code value}. */
    record Equals(String key, Object value) implements DocumentFilter {
    }

    /** The value, or an item of a list value, is one of {@code values}. */
    record In(String key, List<Object> values) implements DocumentFilter {
    }

    /** Not {@link Equals}: documents without the key match too. */
    record NotEquals(String key, Object value) implements DocumentFilter {
    }

    /** The document has (or, with {@code present} false, lacks) a value for the key. */
    record Exists(String key, boolean present) implements DocumentFilter {
    }

    /** Bounds on a number or a date (null: unbounded); all bounds are of one kind. */
    record Range(String key, Object gte, Object gt, Object lte, Object lt) implements DocumentFilter {
    }

    /** A string value (or an item of a list) starts with {@code prefix}. */
    record Prefix(String key, String prefix) implements DocumentFilter {
    }

    record All(List<DocumentFilter> filters) implements DocumentFilter {
    }

    record Any(List<DocumentFilter> filters) implements DocumentFilter {
    }
}
