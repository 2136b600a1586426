package dev.openrag.mcp.memory;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.memory.MemoryBatch;
import dev.openrag.memory.MemoryFilter;
import dev.openrag.memory.MemoryQuery;
import dev.openrag.memory.Tags;
import io.quarkiverse.mcp.server.ToolCallException;

/** Argument checks shared by the tools: each failure is an {@code isError} result naming the argument. */
public final class ToolArguments {

    public static final int MAX_K = 100;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LINK_TYPE = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,63}");

    private ToolArguments() {
    }

    public static String text(String value, String name, int maxChars) {
        if (value == null || value.isBlank()) {
            throw new ToolCallException("argument '" + name + "' is required and must not be blank");
        }
        if (value.length() > maxChars) {
            throw new ToolCallException("argument '" + name + "' has " + value.length() + " characters, the limit is " + maxChars
                    + " (openrag.mcp.max-text-chars)");
        }
        return value.strip();
    }

    public static String id(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new ToolCallException("argument '" + name + "' is required and must not be blank");
        }
        return value.strip();
    }

    public static int k(Integer k, int defaultK) {
        int value = k == null ? defaultK : k;
        if (value < 1 || value > MAX_K) {
            throw new ToolCallException("argument 'k' must be between 1 and " + MAX_K + ", got " + value);
        }
        return value;
    }

    public static Long ttlSeconds(Long ttl) {
        if (ttl != null && ttl <= 0) {
            throw new ToolCallException("argument 'ttlSeconds' must be a positive number of seconds, got " + ttl);
        }
        return ttl;
    }

    public static String linkType(String type) {
        if (type == null || !LINK_TYPE.matcher(type).matches()) {
            throw new ToolCallException("argument 'type' must be a name of 1-64 letters, digits, '_' or '-' starting with a letter"
                    + (type == null ? "" : ", got '" + type + "'"));
        }
        return type;
    }

    /** An optional ISO-8601 time argument as epoch ms ({@link MemoryBatch#time}). */
    public static Long time(String value, String name) {
        try {
            return MemoryBatch.time(value, name);
        } catch (IllegalArgumentException e) {
            throw new ToolCallException("argument " + e.getMessage());
        }
    }

    /** Longest recency half-life accepted, in days (a century). */
    static final double MAX_HALF_LIFE_DAYS = 36_500;

    /** Recency counted back from {@code from} (epoch ms) with this half-life in days; null when not asked for. */
    public static MemoryQuery.Recency recency(Double halfLifeDays, long from) {
        if (halfLifeDays == null) {
            return null;
        }
        if (!(halfLifeDays > 0 && halfLifeDays <= MAX_HALF_LIFE_DAYS)) {
            throw new ToolCallException("argument 'recencyHalfLifeDays' must be a number of days above 0 and at most "
                    + (long) MAX_HALF_LIFE_DAYS + ", got " + halfLifeDays);
        }
        return new MemoryQuery.Recency(halfLifeDays * 86_400_000d, from);
    }

    public static String speaker(String speaker) {
        try {
            return MemoryBatch.speaker(speaker, "speaker");
        } catch (IllegalArgumentException e) {
            throw new ToolCallException("argument " + e.getMessage());
        }
    }

    /** Optional caller metadata of a memory ({@link MemoryFilter#metadata}); null: not given. */
    public static Map<String, Object> metadata(Map<String, Object> metadata) {
        if (metadata == null) {
            return null;
        }
        try {
            return MemoryFilter.metadata(metadata);
        } catch (IllegalArgumentException e) {
            throw new ToolCallException("argument 'metadata': " + e.getMessage());
        }
    }

    /** An optional filter on tags and metadata ({@link MemoryFilter#parse}); null or empty: none. */
    public static DocumentFilter filter(Map<String, Object> filter) {
        if (filter == null || filter.isEmpty()) {
            return null;
        }
        try {
            return MemoryFilter.parse(JSON.valueToTree(filter));
        } catch (IllegalArgumentException e) {
            throw new ToolCallException("argument 'filter': " + e.getMessage());
        }
    }

    public static List<String> tags(List<String> tags) {
        try {
            return Tags.check(tags);
        } catch (IllegalArgumentException e) {
            throw new ToolCallException("argument " + e.getMessage());
        }
    }
}
