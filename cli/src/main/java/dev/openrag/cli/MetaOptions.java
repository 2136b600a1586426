package dev.openrag.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.schemas.Metadata;

/** {@code --meta KEY=VALUE} and {@code --filter JSON}, turned into what the APIs take; the server checks the rules too. */
final class MetaOptions {

    /** A key named twice is refused, not read as its last value with the others dropped. */
    private static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

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

    /**
     * The metadata object, for a request body that holds it (sources, crawls); null: no option given. Checked here by
     * the rules every server applies alike ({@link Metadata#normalise}: reserved names in any case, each key's and
     * value's size), so a bad option fails before any file is read or sent, with the rule it breaks. The cap on the
     * whole ({@code openrag.metadata.max-bytes}) is the server's setting, not this machine's: the server's 400 says it.
     */
    static Map<String, Object> map(List<String> options) {
        if (options == null || options.isEmpty()) {
            return null;
        }
        Map<String, List<Object>> given = new LinkedHashMap<>();
        for (String option : options) {
            int equals = option.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("--meta takes KEY=VALUE, got '" + option + "'");
            }
            given.computeIfAbsent(option.substring(0, equals), key -> new ArrayList<>()).add(typed(option.substring(equals + 1)));
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        given.forEach((key, values) -> {
            if (values.size() == 1) {
                metadata.put(key, values.get(0));
                return;
            }
            // a key given twice is a list, and lists hold strings: a number among them would silently become text
            values.stream().filter(value -> value instanceof Number).findFirst().ifPresent(number -> {
                throw new IllegalArgumentException("--meta " + key + " is given " + values.size() + " times, which makes a list of "
                        + "strings, but " + number + " is a number; give a number once (--meta " + key + "=" + number
                        + "), or only values that are text");
            });
            metadata.put(key, values.stream().map(String::valueOf).toList());
        });
        try {
            Metadata.normalise(metadata, false);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--meta: " + e.getMessage(), e);
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
