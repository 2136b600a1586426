package dev.openrag.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** {@code --meta KEY=VALUE} and {@code --filter JSON}, turned into what the APIs take; the server checks the rules. */
final class MetaOptions {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MetaOptions() {
    }

    /** The metadata object as JSON (null: no option given). */
    static String json(List<String> options) {
        Map<String, Object> metadata = map(options);
        if (metadata == null) {
            return null;
        }
        try {
            return JSON.writeValueAsString(metadata);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("--meta: " + e.getOriginalMessage(), e);
        }
    }

    /** The metadata object, for a request body that holds it (sources, crawls); null: no option given. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> map(List<String> options) {
        if (options == null || options.isEmpty()) {
            return null;
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        for (String option : options) {
            int equals = option.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("--meta takes KEY=VALUE, got '" + option + "'");
            }
            String key = option.substring(0, equals);
            Object value = typed(option.substring(equals + 1));
            Object before = metadata.get(key);
            if (before == null) {
                metadata.put(key, value);
            } else {
                // a key given twice is a list, and lists hold strings
                List<String> list = before instanceof List<?> items ? (List<String>) items : new ArrayList<>(List.of(String.valueOf(before)));
                list.add(String.valueOf(value));
                metadata.put(key, list);
            }
        }
        return metadata;
    }

    /** The {@code --filter} argument as JSON; the server says what is wrong with a well-formed but invalid one. */
    static JsonNode filter(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("--filter is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * A number only when the number is written as the text is ({@code 2026}, {@code 2.5}): a value
     * like {@code 02139}, {@code 1.10} or {@code 1.0} is text the caller means as written (a postcode,
     * a version), and as a number it would come back, and compare, as another text ({@code 2139}, {@code 1.1}).
     */
    static Object typed(String value) {
        if (!value.matches("-?\\d{1,15}(\\.\\d+)?")) {
            return value;
        }
        boolean whole = value.indexOf('.') < 0;
        Object number = whole ? (Object) Long.parseLong(value) : (Object) Double.parseDouble(value);
        String written = whole ? number.toString() : java.math.BigDecimal.valueOf((Double) number).stripTrailingZeros().toPlainString();
        return written.equals(value) ? number : value;
    }
}
