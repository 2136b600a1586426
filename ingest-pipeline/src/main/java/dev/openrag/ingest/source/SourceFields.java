package dev.openrag.ingest.source;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.openrag.ingest.stage.parse.DocumentParser;
import dev.openrag.schemas.Metadata;

/**
 * The source fields ({@link dev.openrag.schemas.Metadata#SOURCE_FIELDS}) each way in knows, filled in
 * one place: a file's {@code fileName} and {@code extension} (uploads, sync), a page's {@code url} and
 * {@code host} (crawls), and after parsing the {@code title}, {@code mediaType} and what the format
 * itself holds ({@code author}, {@code created}, {@code modified}). What a source gave first wins over
 * what parsing finds: a synced file's file-system or git times over a PDF's own.
 */
public final class SourceFields {

    private SourceFields() {
    }

    /** {@code fileName} (the last path segment) and {@code extension} (lower case, without the dot; absent without one). */
    public static Map<String, Object> file(String path) {
        Map<String, Object> fields = new LinkedHashMap<>();
        String name = path.substring(path.lastIndexOf('/') + 1);
        fields.put("fileName", clipped(name, Metadata.MAX_SOURCE_VALUE_LENGTH));
        int dot = name.lastIndexOf('.');
        if (dot > 0 && dot < name.length() - 1) {
            fields.put("extension", clipped(name.substring(dot + 1).toLowerCase(Locale.ROOT), Metadata.MAX_SOURCE_VALUE_LENGTH));
        }
        return fields;
    }

    /**
     * A crawled page's {@code url} and {@code host} (lower case). A URL past {@link Metadata#MAX_SOURCE_VALUE_LENGTH} is
     * clipped (its whole self stays the document's source URI): refused, the page would be dead-lettered.
     */
    public static Map<String, Object> page(String url) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("url", clipped(url, Metadata.MAX_SOURCE_VALUE_LENGTH));
        String host = URI.create(url).getHost();
        if (host != null) {
            fields.put("host", host.toLowerCase(Locale.ROOT));
        }
        return fields;
    }

    /** The metadata a source gave, completed with what parsing found (the source's own values kept). */
    public static Map<String, Object> afterParse(Map<String, Object> given, DocumentParser.Parsed parsed) {
        Map<String, Object> metadata = new LinkedHashMap<>(given == null ? Map.of() : given);
        if (metadata.get("fileName") instanceof String name) {
            file(name).forEach(metadata::putIfAbsent);
        }
        if (parsed.title() != null && !parsed.title().isBlank()) {
            metadata.putIfAbsent("title", clipped(parsed.title().strip(), Metadata.MAX_VALUE_LENGTH));
        }
        if (parsed.mediaType() != null) {
            metadata.putIfAbsent("mediaType", parsed.mediaType());
        }
        parsed.properties().forEach(metadata::putIfAbsent);
        return metadata;
    }

    /** At most {@code max} characters of {@code text}, one fewer where the cut would split a surrogate pair. */
    public static String clipped(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        return text.substring(0, Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max);
    }
}
