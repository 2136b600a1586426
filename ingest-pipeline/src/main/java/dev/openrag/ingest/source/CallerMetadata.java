package dev.openrag.ingest.source;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.Metadata;

/**
 * A caller's metadata on an upload: checked by {@link Metadata}'s rules (a 400 naming the key
 * otherwise), then added to each document beside the source fields the upload knows (its file
 * name; parsing adds the rest, see {@link SourceFields}).
 */
final class CallerMetadata {

    /** A key named twice is refused, not read as its last value with the others dropped. */
    private static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private CallerMetadata() {
    }

    /** The multipart {@code metadata} part: a JSON object, or absent. */
    static Map<String, Object> fromJson(String json) {
        if (json == null || json.isBlank()) {
            return Map.of();
        }
        JsonNode tree;
        try {
            tree = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("field 'metadata' is not valid JSON: " + e.getOriginalMessage());
        }
        if (!tree.isObject()) {
            throw ApiException.badRequest("field 'metadata' must be a JSON object of key → string, number, date or list of strings");
        }
        return checked(JSON.convertValue(tree, new TypeReference<Map<String, Object>>() { }));
    }

    /** Checked and normalised, as JSON values (dates as ISO-8601 instants). */
    static Map<String, Object> checked(Map<String, Object> metadata) {
        try {
            return Metadata.toJson(Metadata.fromCaller(metadata));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("field 'metadata': " + e.getMessage());
        }
    }

    /** The document with the caller's metadata beside its source fields. */
    static DocumentArrived withMetadata(DocumentArrived document, Map<String, Object> callerMetadata) {
        Map<String, Object> metadata = new LinkedHashMap<>(callerMetadata);
        if (document.metadata() != null) {
            metadata.putAll(document.metadata());
        }
        return new DocumentArrived(document.schemaVersion(), document.eventId(), document.documentId(), document.jobId(),
                document.collection(), document.source(), document.title(), document.mediaType(), document.content(),
                document.contentEncoding(), document.chunks(), Map.copyOf(metadata));
    }
}
