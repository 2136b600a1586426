package dev.openrag.schemas;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A document's metadata: key → string, number, date or list of strings. The rules every way in
 * applies (REST uploads, the Kafka event, sync and crawl) and every store relies on: keys are
 * plain names (no dots, quotes or operators, so they are safe as OpenSearch field names and Neo4j
 * property names), values are small and flat. A string written as an ISO-8601 date or instant
 * ({@code 2026-01-01}, {@code 2026-01-01T10:00:00Z}) is a date, kept as a UTC instant, so that
 * ranges compare times, not text. A list stays a list of strings, and those of its items that
 * read as dates are also dates: equality, {@code in}, {@code not} and ranges on dates match a list
 * when one of its items matches ({@link #datesIn}), as they match a single date.
 */
public final class Metadata {

    /**
     * What the pipeline fills from the source; a caller's key may not take one of these names, and they do not count
     * among the caller's {@link #MAX_KEYS} ({@code crawlId}: the crawl a page came from).
     */
    public static final Set<String> SOURCE_FIELDS = Set.of("title", "fileName", "extension", "mediaType", "path", "sourceId",
            "created", "modified", "author", "url", "host", "commit", "crawlId");
    /** The filter form's own words: a key named so could not be told from an operator. */
    public static final Set<String> FILTER_WORDS = Set.of("and", "or", "in", "not", "exists", "gte", "gt", "lte", "lt", "prefix");
    public static final int MAX_KEYS = 32;
    public static final int MAX_KEY_LENGTH = 64;
    public static final int MAX_VALUE_LENGTH = 1024;
    /**
     * A source field's value may be longer than a caller's (a crawled page's {@code url}, a synced file's {@code path}):
     * 8192 characters are at most 32768 UTF-8 bytes only for surrogate pairs (4 bytes per 2 characters) and 24576
     * otherwise, under the 32766-byte term Lucene indexes as an OpenSearch keyword.
     */
    public static final int MAX_SOURCE_VALUE_LENGTH = 8192;
    /** Integers beyond this (2^53) a double, as OpenSearch and Qdrant compare numbers, no longer tells apart. */
    public static final long MAX_EXACT_INTEGER = 1L << 53;
    public static final int MAX_LIST_SIZE = 64;
    /**
     * The most a document's caller metadata (every key that is not a source field, with its values) may take as JSON,
     * in UTF-8 bytes, unless {@value #MAX_TOTAL_BYTES_PROPERTY} (a system property, or the environment's
     * {@code OPENRAG_METADATA_MAX_BYTES}) says otherwise: each key and value has its own limit, but 32 keys of 64 items
     * of 1024 characters would be 2 MiB, copied onto every chunk in every store.
     */
    public static final int MAX_TOTAL_BYTES = 65_536;
    public static final String MAX_TOTAL_BYTES_PROPERTY = "openrag.metadata.max-bytes";
    /**
     * The most distinct metadata fields one collection holds, source fields included: a key counts
     * once for each kind of value it has among the collection's documents (text, number, date, and
     * dates within a list). OpenSearch maps each such field, and an index takes 1000 fields with its
     * own among them; a document that would pass this is refused with a reason (dead letter),
     * never half written.
     */
    public static final int MAX_COLLECTION_FIELDS = 900;

    private static final Pattern KEY = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");
    private static final Pattern DATE_LIKE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}([Tt ].*)?");

    /** The kinds a value can have; each store keeps each kind in its own typed field. */
    public enum Kind { STRING, NUMBER, DATE }

    private Metadata() {
    }

    /**
     * A caller's metadata checked and normalised (dates to UTC instants, numbers to long or
     * double); source field names are refused.
     *
     * @throws IllegalArgumentException naming the key and the rule it breaks
     */
    public static Map<String, Object> fromCaller(Map<String, ?> metadata) {
        return withinTotal(normalise(metadata, false), false);
    }

    /**
     * A producer's event's metadata (the Kafka way in, which the pipeline's own sources share): source fields under
     * their own names pass, as the pipeline fills them; a source field's name in another case ({@code Title}) is
     * refused as from a caller, since it would be a second field reading as the source one.
     *
     * @throws IllegalArgumentException naming the key and the rule it breaks
     */
    public static Map<String, Object> fromProducer(Map<String, ?> metadata) {
        if (metadata != null) {
            for (String key : metadata.keySet()) {
                if (key != null && !SOURCE_FIELDS.contains(key) && reserved(SOURCE_FIELDS, key) != null) {
                    throw new IllegalArgumentException(sourceFieldRefusal(key));
                }
            }
        }
        return withinTotal(normalise(metadata, true), false);
    }

    /**
     * {@code normalised} unless its caller keys (every key when {@code sourceFieldsCount}: a memory has no source fields)
     * take more than {@link #maxTotalBytes()} as JSON.
     *
     * @throws IllegalArgumentException saying the size and the limit
     */
    public static Map<String, Object> withinTotal(Map<String, Object> normalised, boolean sourceFieldsCount) {
        Map<String, Object> counted = new LinkedHashMap<>(toJson(normalised));
        if (!sourceFieldsCount) {
            counted.keySet().removeAll(SOURCE_FIELDS);
        }
        if (counted.isEmpty()) {
            return normalised;
        }
        long max = maxTotalBytes();
        long bytes;
        try {
            bytes = JSON.writeValueAsBytes(counted).length;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("metadata could not be written as JSON", e); // normalised values always can
        }
        if (bytes > max) {
            throw new IllegalArgumentException("metadata takes " + bytes + " bytes as JSON (" + counted.size()
                    + " keys with their values); at most " + max + " are allowed in all (" + MAX_TOTAL_BYTES_PROPERTY
                    + "): shorten or drop values, they are copied onto every chunk");
        }
        return normalised;
    }

    /** {@link #MAX_TOTAL_BYTES}, or the system property or environment variable that sets it. */
    public static long maxTotalBytes() {
        String set = System.getProperty(MAX_TOTAL_BYTES_PROPERTY);
        if (set == null || set.isBlank()) {
            set = System.getenv("OPENRAG_METADATA_MAX_BYTES");
        }
        if (set == null || set.isBlank()) {
            return MAX_TOTAL_BYTES;
        }
        try {
            long max = Long.parseLong(set.strip());
            if (max > 0) {
                return max;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalStateException(MAX_TOTAL_BYTES_PROPERTY + " (OPENRAG_METADATA_MAX_BYTES) must be a positive number of bytes, got '"
                + set + "'");
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /** Metadata that may include source fields (the pipeline's own, or a producer's event); what the stores read back. */
    public static Map<String, Object> normalise(Map<String, ?> metadata, boolean sourceFieldsAllowed) {
        if (metadata == null || metadata.isEmpty()) {
            return Map.of();
        }
        long callerKeys = metadata.keySet().stream().filter(key -> !SOURCE_FIELDS.contains(key)).count();
        if (callerKeys > MAX_KEYS) {
            throw new IllegalArgumentException("metadata has " + callerKeys + " keys; at most " + MAX_KEYS + " are allowed");
        }
        Map<String, Object> normalised = new LinkedHashMap<>();
        for (Map.Entry<String, ?> entry : metadata.entrySet()) {
            String key = checkKey(entry.getKey());
            if (!sourceFieldsAllowed && reserved(SOURCE_FIELDS, key) != null) {
                throw new IllegalArgumentException(sourceFieldRefusal(key));
            }
            Object value = value(key, entry.getValue());
            // an empty list is no value: kept, OpenSearch would say the key does not exist and Neo4j that it does
            if (!(value instanceof List<?> list && list.isEmpty())) {
                normalised.put(key, value);
            }
        }
        return normalised;
    }

    private static String sourceFieldRefusal(String key) {
        return "metadata key '" + key + "' is " + (SOURCE_FIELDS.contains(key) ? "" : "in another case ")
                + "a source field the pipeline fills; reserved are " + String.join(", ", SOURCE_FIELDS.stream().sorted().toList());
    }

    /** @throws IllegalArgumentException unless {@code key} is a usable metadata key (or filter field) */
    public static String checkKey(String key) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("metadata key must not be empty");
        }
        if (key.length() > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("metadata key '" + key.substring(0, 20) + "…' is " + key.length()
                    + " characters long; at most " + MAX_KEY_LENGTH + " are allowed");
        }
        if (!KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("metadata key '" + key + "' is not a plain name: use a letter, then letters, digits, '_' or '-'");
        }
        if (reserved(FILTER_WORDS, key) != null) {
            throw new IllegalArgumentException("metadata key '" + key + "' is " + (FILTER_WORDS.contains(key) ? "" : "in another case ")
                    + "a filter operator; reserved are "
                    + String.join(", ", FILTER_WORDS.stream().sorted().toList()));
        }
        return key;
    }

    /**
     * The reserved name {@code key} is, in any case ({@code Path}, {@code PATH} beside {@code path};
     * {@code OR} beside {@code or}), or null: such a key would be a second field that reads as the
     * reserved one in facets, hits and filters. Compared without the default locale's case rules.
     */
    private static String reserved(Set<String> names, String key) {
        return names.stream().filter(name -> name.equalsIgnoreCase(key)).findFirst().orElse(null);
    }

    /** The longest string value {@code key} may have: a source field's is longer than a caller key's. */
    public static int maxValueLength(String key) {
        return SOURCE_FIELDS.contains(key) ? MAX_SOURCE_VALUE_LENGTH : MAX_VALUE_LENGTH;
    }

    /** One value normalised: a string, a date ({@link Instant}), a number (long or double), or a list of strings. */
    public static Object value(String key, Object value) {
        if (value == null) {
            throw new IllegalArgumentException("metadata '" + key + "' is null; leave the key out instead");
        }
        if (value instanceof String text) {
            return scalar(key, text);
        }
        if (value instanceof Instant instant) {
            return instant.truncatedTo(ChronoUnit.MILLIS);
        }
        if (value instanceof Number number) {
            return number(key, number);
        }
        if (value instanceof List<?> list) {
            if (list.size() > MAX_LIST_SIZE) {
                throw new IllegalArgumentException("metadata '" + key + "' lists " + list.size() + " values; at most " + MAX_LIST_SIZE);
            }
            List<String> strings = new ArrayList<>();
            for (Object item : list) {
                if (!(item instanceof String text)) {
                    throw new IllegalArgumentException("metadata '" + key + "' is a list with a " + typeName(item)
                            + "; lists hold strings only");
                }
                strings.add(checkLength(key, text));
            }
            return List.copyOf(strings);
        }
        throw new IllegalArgumentException("metadata '" + key + "' is " + typeName(value)
                + "; use a string, a number, an ISO-8601 date or a list of strings");
    }

    /** A string scalar as the stores keep it: an ISO-8601 date or instant becomes an {@link Instant}. */
    public static Object scalar(String key, String text) {
        checkLength(key, text);
        Instant date = dateOrNull(text);
        return date == null ? text : date;
    }

    /** The items of a normalised list value that read as ISO-8601 dates, as instants (empty for any other value). */
    public static List<Instant> datesIn(Object normalisedValue) {
        if (!(normalisedValue instanceof List<?> list)) {
            return List.of();
        }
        return list.stream().map(item -> dateOrNull((String) item)).filter(java.util.Objects::nonNull).toList();
    }

    public static Kind kindOf(Object normalisedValue) {
        return normalisedValue instanceof Instant ? Kind.DATE : normalisedValue instanceof Number ? Kind.NUMBER : Kind.STRING;
    }

    /** Normalised metadata as JSON-ready values (dates as ISO-8601 instants). */
    public static Map<String, Object> toJson(Map<String, Object> normalised) {
        Map<String, Object> json = new LinkedHashMap<>();
        normalised.forEach((key, value) -> json.put(key, value instanceof Instant instant ? instant.toString() : value));
        return json;
    }

    /** The first and last instants a stored date may be: OpenSearch's date format has four-digit UTC years only. */
    private static final Instant FIRST_DATE = Instant.parse("0000-01-01T00:00:00Z");
    private static final Instant LAST_DATE = Instant.parse("9999-12-31T23:59:59.999999999Z");

    /**
     * The date a text denotes (a date alone is its start, UTC), or null when it is not an ISO-8601 date, or is one whose
     * UTC instant falls outside the years 0000-9999 ("9999-12-31T23:59:59-01:00"): such a text stays text, which every
     * store takes, instead of a date OpenSearch would refuse. Kept to the millisecond, as OpenSearch keeps dates: finer
     * in Neo4j, a filter bound would part documents there that OpenSearch holds at the same time.
     */
    public static Instant dateOrNull(String text) {
        Instant date = parsedDate(text);
        return date == null || date.isBefore(FIRST_DATE) || date.isAfter(LAST_DATE) ? null : date.truncatedTo(ChronoUnit.MILLIS);
    }

    private static Instant parsedDate(String text) {
        if (!DATE_LIKE.matcher(text).matches()) {
            return null;
        }
        try {
            return text.length() == 10 ? LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant()
                    : OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return Instant.parse(text);
            } catch (DateTimeParseException notInstant) {
                return null;
            }
        }
    }

    private static Number number(String key, Number number) {
        boolean integer = number instanceof Long || number instanceof Integer || number instanceof Short || number instanceof Byte
                || number instanceof java.math.BigInteger;
        if (integer && new java.math.BigInteger(number.toString()).abs().compareTo(java.math.BigInteger.valueOf(MAX_EXACT_INTEGER)) > 0) {
            // the stores compare numbers as doubles: 2^53 + 1 would read back, and match, as 2^53
            String digits = number.toString();
            throw new IllegalArgumentException("metadata '" + key + "' is the integer " + (digits.length() > 24 ? digits.substring(0, 20)
                    + "… (" + digits.length() + " digits)" : digits) + ", beyond ±" + MAX_EXACT_INTEGER
                    + " (2^53), which the stores cannot keep exactly; send it as a string");
        }
        double value = number.doubleValue();
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("metadata '" + key + "' is not a finite number");
        }
        return value == Math.rint(value) && Math.abs(value) <= MAX_EXACT_INTEGER ? (Number) (long) value : (Number) value;
    }

    private static String checkLength(String key, String text) {
        int max = maxValueLength(key);
        if (text.length() > max) {
            throw new IllegalArgumentException("metadata '" + key + "' has a value of " + text.length()
                    + " characters; at most " + max + " are allowed");
        }
        return text;
    }

    private static String typeName(Object value) {
        return value == null ? "null" : value instanceof Map ? "an object (nested objects are not allowed)"
                : value instanceof Boolean ? "a boolean" : "a " + value.getClass().getSimpleName();
    }
}
