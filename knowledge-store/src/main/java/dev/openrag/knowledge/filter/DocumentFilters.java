package dev.openrag.knowledge.filter;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import dev.openrag.schemas.Metadata;

/**
 * Reads the one JSON form of {@code filter} (search, ask, the MCP knowledge tools, the CLI):
 * <pre>
 * {"team": "payments"}                          equality (an item of a list value counts)
 * {"team": {"in": ["payments", "risk"]}}        one of
 * {"team": {"not": "payments"}}                 not equal (documents without the key match)
 * {"owner": {"exists": true}}                   has a value (false: has none)
 * {"year": {"gte": 2025, "lt": 2027}}           ranges on numbers or ISO-8601 dates
 * {"path": {"prefix": "docs/"}}                 string prefix
 * {"and": [{...}, {...}]}, {"or": [...]}        combinations
 * </pre>
 * Keys at one level are and-ed; several operators on one key too. Anything else is refused with
 * an {@link IllegalArgumentException} that names the place ({@code filter.year.gte}) and the rule.
 */
public final class DocumentFilters {

    public static final int MAX_DEPTH = 8;
    public static final int MAX_CONDITIONS = 64;
    public static final int MAX_IN_VALUES = 256;
    private static final List<String> OPERATORS = List.of("in", "not", "exists", "gte", "gt", "lte", "lt", "prefix");

    private int conditions;

    private DocumentFilters() {
    }

    /** @return the filter, or null when {@code json} is absent or JSON null (no filter) */
    public static DocumentFilter parse(JsonNode json) {
        if (json == null || json.isNull() || json.isMissingNode()) {
            return null;
        }
        return new DocumentFilters().object(json, "filter", 1);
    }

    /** Every key the filter names, at any depth. */
    public static Set<String> keys(DocumentFilter filter) {
        Set<String> keys = new TreeSet<>();
        collectKeys(filter, keys);
        return keys;
    }

    private static void collectKeys(DocumentFilter filter, Set<String> keys) {
        switch (filter) {
            case DocumentFilter.All all -> all.filters().forEach(part -> collectKeys(part, keys));
            case DocumentFilter.Any any -> any.filters().forEach(part -> collectKeys(part, keys));
            case DocumentFilter.Equals equals -> keys.add(equals.key());
            case DocumentFilter.In in -> keys.add(in.key());
            case DocumentFilter.NotEquals not -> keys.add(not.key());
            case DocumentFilter.Exists exists -> keys.add(exists.key());
            case DocumentFilter.Range range -> keys.add(range.key());
            case DocumentFilter.Prefix prefix -> keys.add(prefix.key());
        }
    }

    private DocumentFilter object(JsonNode json, String at, int depth) {
        if (!json.isObject()) {
            throw new IllegalArgumentException(at + " must be a JSON object, got " + kind(json));
        }
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException(at + " nests deeper than " + MAX_DEPTH + " levels");
        }
        // {} alone means "no filter"; inside and/or it would be a condition that counts against no
        // limit, so a body of {"or": [{}, {}, ...]} could grow the stores' queries without bound
        if (depth > 1 && json.isEmpty()) {
            throw new IllegalArgumentException(at + " names no condition");
        }
        List<DocumentFilter> all = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = json.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            String name = field.getKey();
            if (name.equals("and") || name.equals("or")) {
                all.add(combination(name, field.getValue(), at + "." + name, depth));
            } else {
                all.add(condition(key(name, at), field.getValue(), at + "." + name));
            }
        }
        return all.size() == 1 ? all.get(0) : new DocumentFilter.All(List.copyOf(all));
    }

    private DocumentFilter combination(String name, JsonNode json, String at, int depth) {
        if (!json.isArray() || json.isEmpty()) {
            throw new IllegalArgumentException(at + " must be a non-empty array of filter objects, got " + kind(json));
        }
        List<DocumentFilter> parts = new ArrayList<>();
        for (int i = 0; i < json.size(); i++) {
            parts.add(object(json.get(i), at + "[" + i + "]", depth + 1));
        }
        return name.equals("and") ? new DocumentFilter.All(List.copyOf(parts)) : new DocumentFilter.Any(List.copyOf(parts));
    }

    private DocumentFilter condition(String key, JsonNode json, String at) {
        if (++conditions > MAX_CONDITIONS) {
            throw new IllegalArgumentException("filter has more than " + MAX_CONDITIONS + " conditions");
        }
        if (json.isTextual() || json.isNumber()) {
            return new DocumentFilter.Equals(key, scalar(key, json, at));
        }
        if (!json.isObject()) {
            throw new IllegalArgumentException(at + " must be a string, a number or an object of operators ("
                    + String.join(", ", OPERATORS) + "), got " + kind(json)
                    + (json.isArray() ? "; for one of several values use {\"in\": [...]}" : ""));
        }
        if (json.isEmpty()) {
            throw new IllegalArgumentException(at + " names no operator; use " + String.join(", ", OPERATORS));
        }
        List<DocumentFilter> all = new ArrayList<>();
        Object[] bounds = new Object[4];
        boolean ranged = false;
        for (Iterator<Map.Entry<String, JsonNode>> operators = json.fields(); operators.hasNext(); ) {
            Map.Entry<String, JsonNode> operator = operators.next();
            String place = at + "." + operator.getKey();
            JsonNode value = operator.getValue();
            switch (operator.getKey()) {
                case "in" -> all.add(new DocumentFilter.In(key, values(key, value, place)));
                case "not" -> all.add(new DocumentFilter.NotEquals(key, scalar(key, value, place)));
                case "exists" -> {
                    if (!value.isBoolean()) {
                        throw new IllegalArgumentException(place + " must be true or false, got " + kind(value));
                    }
                    all.add(new DocumentFilter.Exists(key, value.booleanValue()));
                }
                case "prefix" -> {
                    if (!value.isTextual() || value.textValue().isEmpty()) {
                        throw new IllegalArgumentException(place + " must be a non-empty string, got " + kind(value));
                    }
                    if (value.textValue().length() > Metadata.maxValueLength(key)) {
                        throw new IllegalArgumentException(place + " is longer than " + Metadata.maxValueLength(key) + " characters");
                    }
                    all.add(new DocumentFilter.Prefix(key, value.textValue()));
                }
                case "gte", "gt", "lte", "lt" -> {
                    bounds[List.of("gte", "gt", "lte", "lt").indexOf(operator.getKey())] = bound(key, value, place);
                    ranged = true;
                }
                default -> throw new IllegalArgumentException(place + ": unknown operator '" + operator.getKey()
                        + "'; use " + String.join(", ", OPERATORS));
            }
        }
        if (ranged) {
            Class<?> kind = null;
            for (Object bound : bounds) {
                if (bound != null && kind != null && !kind.equals(bound instanceof Instant ? Instant.class : Number.class)) {
                    throw new IllegalArgumentException(at + " mixes number and date bounds; use one kind");
                }
                kind = bound == null ? kind : bound instanceof Instant ? Instant.class : Number.class;
            }
            all.add(new DocumentFilter.Range(key, bounds[0], bounds[1], bounds[2], bounds[3]));
        }
        return all.size() == 1 ? all.get(0) : new DocumentFilter.All(List.copyOf(all));
    }

    private static String key(String name, String at) {
        try {
            return Metadata.checkKey(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(at + ": " + e.getMessage());
        }
    }

    private static Object bound(String key, JsonNode json, String at) {
        if (json.isNumber()) {
            return scalar(key, json, at);
        }
        Instant date = json.isTextual() ? Metadata.dateOrNull(json.textValue()) : null;
        if (date == null) {
            throw new IllegalArgumentException(at + " must be a number or an ISO-8601 date (2026-01-01 or 2026-01-01T00:00:00Z), got "
                    + (json.isTextual() ? "'" + abbreviated(json.textValue()) + "'" : kind(json)));
        }
        return date;
    }

    private static List<Object> values(String key, JsonNode json, String at) {
        if (!json.isArray() || json.isEmpty()) {
            throw new IllegalArgumentException(at + " must be a non-empty array of strings or numbers, got " + kind(json));
        }
        if (json.size() > MAX_IN_VALUES) {
            throw new IllegalArgumentException(at + " lists " + json.size() + " values; at most " + MAX_IN_VALUES);
        }
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < json.size(); i++) {
            values.add(scalar(key, json.get(i), at + "[" + i + "]"));
        }
        return List.copyOf(values);
    }

    private static Object scalar(String key, JsonNode json, String at) {
        if (json.isTextual()) {
            return checked(key, json.textValue(), at);
        }
        if (json.isNumber()) {
            try {
                return Metadata.value(key, json.numberValue());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(at + ": " + e.getMessage());
            }
        }
        throw new IllegalArgumentException(at + " must be a string or a number, got " + kind(json));
    }

    private static Object checked(String key, String text, String at) {
        try {
            return Metadata.scalar(key, text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(at + ": " + e.getMessage());
        }
    }

    private static String abbreviated(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "…" : text;
    }

    private static String kind(JsonNode json) {
        return switch (json.getNodeType()) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> json.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }
}
