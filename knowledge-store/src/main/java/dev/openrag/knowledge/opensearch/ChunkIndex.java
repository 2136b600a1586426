package dev.openrag.knowledge.opensearch;

import java.io.IOException;

import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.generic.Requests;
import org.opensearch.client.opensearch.generic.Response;

import dev.openrag.knowledge.port.EngineUnavailableException;
import dev.openrag.schemas.CollectionNames;

/**
 * The per-collection chunk index {@code openrag-chunks-<collection>} (ARCHITECTURE §4).
 * {@code text} and {@code context} use the English analyzer for BM25; a {@code .code} sub-field
 * also splits identifiers (camelCase, snake_case, digits) so "parseHttpHeader" matches "http header".
 * One shard; one replica as soon as the cluster has a second node ({@code auto_expand_replicas 0-1}),
 * none on a single node, where a replica could never be assigned and would keep the index yellow.
 * Document metadata goes into one object per kind of value, {@code meta_s} (keyword: strings and
 * the items of lists), {@code meta_n} (double) and {@code meta_d} (date), typed by dynamic templates,
 * so a key that is a number in one document and a string in another lives in two fields and never
 * makes a write fail on a mapping conflict. The items of a list that read as dates are also in
 * {@code meta_dl} (date), where date filters find them. The index's own field limit is the index's
 * fields plus {@link dev.openrag.schemas.Metadata#MAX_COLLECTION_FIELDS}, so OpenSearch itself refuses
 * the field past the limit when fields are reserved ({@link #mapMetadataFields}), however many write at once.
 */
public final class ChunkIndex {

    public static final String PREFIX = "openrag-chunks-";

    static final String SETTINGS_AND_MAPPINGS = """
            {
              "settings": {
                "number_of_shards": 1,
                "mapping": {"total_fields": {"limit": %d}},
                "auto_expand_replicas": "0-1",
                "analysis": {
                  "filter": {
                    "identifier_parts": {
                      "type": "word_delimiter_graph",
                      "split_on_case_change": true,
                      "split_on_numerics": true,
                      "preserve_original": true
                    },
                    "english_stemmer": {"type": "stemmer", "language": "english"},
                    "english_stop": {"type": "stop", "stopwords": "_english_"}
                  },
                  "analyzer": {
                    "code": {
                      "type": "custom",
                      "tokenizer": "whitespace",
                      "filter": ["identifier_parts", "lowercase", "english_stop", "english_stemmer"]
                    }
                  }
                }
              },
              "mappings": {
                "dynamic_templates": [
                  {"meta_strings": {"path_match": "meta_s.*", "mapping": {"type": "keyword"}}},
                  {"meta_numbers": {"path_match": "meta_n.*", "mapping": {"type": "double"}}},
                  {"meta_dates": {"path_match": "meta_d.*", "mapping": {"type": "date", "format": "strict_date_optional_time"}}},
                  {"meta_list_dates": {"path_match": "meta_dl.*", "mapping": {"type": "date", "format": "strict_date_optional_time"}}}
                ],
                "properties": {
                  "meta_s": {"type": "object"},
                  "meta_n": {"type": "object"},
                  "meta_d": {"type": "object"},
                  "meta_dl": {"type": "object"},
                  "collection": {"type": "keyword"},
                  "documentId": {"type": "keyword"},
                  "chunkId": {"type": "keyword"},
                  "chunkIndex": {"type": "integer"},
                  "title": {"type": "text", "analyzer": "english", "fields": {"code": {"type": "text", "analyzer": "code"}}},
                  "sourceUri": {"type": "keyword"},
                  "headingPath": {"type": "text", "analyzer": "english"},
                  "text": {"type": "text", "analyzer": "english", "fields": {"code": {"type": "text", "analyzer": "code"}}},
                  "context": {"type": "text", "analyzer": "english", "fields": {"code": {"type": "text", "analyzer": "code"}}}
                }
              }
            }
            """;

    /**
     * The fields of the index's own that OpenSearch counts against its field limit: each property,
     * object and multi-field of the mapping above (metadata objects included, their keys not).
     */
    static final int OWN_FIELDS = ownFields();

    /** OpenSearch's field limit for a chunk index: its own fields and the metadata fields a collection may hold. */
    static final int FIELD_LIMIT = OWN_FIELDS + dev.openrag.schemas.Metadata.MAX_COLLECTION_FIELDS;

    private static final String BODY = SETTINGS_AND_MAPPINGS.formatted(FIELD_LIMIT);

    private ChunkIndex() {
    }

    private static int ownFields() {
        try {
            var properties = new com.fasterxml.jackson.databind.ObjectMapper().readTree(SETTINGS_AND_MAPPINGS.formatted(0))
                    .path("mappings").path("properties");
            int count = 0;
            for (var field : properties) {
                count += 1 + field.path("fields").size();
            }
            return count;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Index name for a collection; rejects names OpenSearch would refuse or that could escape the prefix. */
    public static String name(String collection) {
        if (collection == null || !CollectionNames.isValid(collection)) {
            throw new IllegalArgumentException("invalid collection name '" + collection
                    + "': use 1-64 characters a-z, 0-9, '_' or '-', starting with a letter or digit");
        }
        return PREFIX + collection;
    }

    /** The metadata fields the collection's index maps ({@code meta_s.team}, {@code meta_n.year}, …); none without an index. */
    static java.util.Set<String> metadataFields(OpenSearchClient client, String collection) {
        String index = name(collection);
        try {
            if (!client.indices().exists(e -> e.index(index)).value()) {
                return java.util.Set.of();
            }
            var mapping = client.indices().getMapping(g -> g.index(index)).result().get(index).mappings();
            java.util.Set<String> fields = new java.util.TreeSet<>();
            for (String kind : OpenSearchFilters.KINDS) {
                var object = mapping.properties().get(kind);
                if (object != null && object.isObject()) {
                    object.object().properties().keySet().forEach(key -> fields.add(kind + "." + key));
                }
            }
            return fields;
        } catch (IOException e) {
            throw unreachable("reading the metadata fields of " + index, e);
        }
    }

    /** Creates the collection's index unless it exists. @return true when it was created */
    public static boolean ensure(OpenSearchClient client, String collection) {
        String index = name(collection);
        try {
            if (client.indices().exists(e -> e.index(index)).value()) {
                return false;
            }
            try (Response response = client.generic().execute(Requests.builder()
                    .method("PUT").endpoint("/" + index).json(BODY).build())) {
                if (response.getStatus() == 400 && bodyOf(response).contains("resource_already_exists_exception")) {
                    return false; // created concurrently by another sink instance
                }
                if (response.getStatus() >= 300) {
                    throw refused(response.getStatus(), bodyOf(response), "creating index " + index);
                }
                return true;
            }
        } catch (IOException e) {
            throw ChunkIndex.unreachable("creating index " + index, e);
        }
    }

    /** The field limit a chunk index must have: one made before it was set has OpenSearch's default (1000). */
    static void limitFields(OpenSearchClient client, String collection) {
        execute(client, "PUT", "/" + name(collection) + "/_settings",
                "{\"index.mapping.total_fields.limit\": " + FIELD_LIMIT + "}", "setting the field limit of " + name(collection));
    }

    /** A mapping update OpenSearch refused: it would take the index past its field limit. */
    static final class FieldLimitReached extends RuntimeException {
        FieldLimitReached(String message) {
            super(message);
        }
    }

    /**
     * Maps metadata fields ({@code meta_s.team}, …) as their dynamic templates would, in one mapping
     * update: OpenSearch applies mapping updates one at a time and checks the field limit in each, so of
     * two writers adding fields at once near the limit, the second sees the first's and is refused.
     *
     * @throws FieldLimitReached when the fields would take the index past {@link #FIELD_LIMIT}
     */
    static void mapMetadataFields(OpenSearchClient client, String collection, java.util.Collection<String> fields) {
        java.util.Map<String, java.util.Map<String, Object>> byKind = new java.util.TreeMap<>();
        for (String field : fields) {
            String kind = field.substring(0, field.indexOf('.'));
            java.util.Map<String, Object> type = OpenSearchFilters.STRINGS.equals(kind) ? java.util.Map.of("type", "keyword")
                    : OpenSearchFilters.NUMBERS.equals(kind) ? java.util.Map.of("type", "double")
                    : java.util.Map.of("type", "date", "format", "strict_date_optional_time");
            byKind.computeIfAbsent(kind, k -> new java.util.TreeMap<>()).put(field.substring(field.indexOf('.') + 1), type);
        }
        java.util.Map<String, Object> properties = new java.util.TreeMap<>();
        byKind.forEach((kind, keys) -> properties.put(kind, java.util.Map.of("properties", keys)));
        String body;
        try {
            body = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(java.util.Map.of("properties", properties));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        execute(client, "PUT", "/" + name(collection) + "/_mapping", body, "mapping metadata fields of " + name(collection));
    }

    private static void execute(OpenSearchClient client, String method, String endpoint, String json, String doing) {
        try (Response response = client.generic().execute(Requests.builder().method(method).endpoint(endpoint).json(json).build())) {
            if (response.getStatus() >= 300) {
                String body = bodyOf(response);
                if (body.contains("Limit of total fields")) {
                    throw new FieldLimitReached(body);
                }
                throw refused(response.getStatus(), body, doing);
            }
        } catch (IOException e) {
            throw unreachable(doing, e);
        }
    }

    /**
     * An I/O failure talking to OpenSearch: the engine is down, restarting or unreachable, or it
     * answered with an error status the client reports as I/O (a 429 from a circuit breaker).
     */
    static EngineUnavailableException unreachable(String doing, IOException e) {
        if (e instanceof org.opensearch.client.transport.httpclient5.ResponseException answer) {
            // the transport throws for a 429; when its body names the engine's state (a read-only block, a full queue),
            // say so, as for a refused bulk item: the stage waits and names the reason instead of "unreachable"
            String type = errorType(bodyOf(answer));
            if (EngineUnavailableException.isEngineState(type) && EngineUnavailableException.isOpenSearchOutage(answer.status(), type)) {
                return EngineUnavailableException.openSearch(answer.status(), type, "OpenSearch answered " + answer.status()
                        + " (" + type + ") while " + doing, e);
            }
        }
        String what = e instanceof org.opensearch.client.transport.httpclient5.ResponseException answer
                ? "OpenSearch answered " + answer.status() + " while "
                : "OpenSearch unreachable while ";
        return new EngineUnavailableException(EngineUnavailableException.OPENSEARCH,
                what + doing + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
    }

    /**
     * A refused index or mapping request, judged as the sinks judge a refused write: OpenSearch's state (429, 5xx, a
     * read-only block) is an outage to wait out, naming the reason; anything else is this request's own failure.
     */
    private static RuntimeException refused(int status, String body, String doing) {
        String type = errorType(body);
        String message = doing + " failed: OpenSearch answered HTTP " + status + " " + body;
        return EngineUnavailableException.isOpenSearchOutage(status, type)
                ? EngineUnavailableException.openSearch(status, type, message, null)
                : new IllegalStateException(message);
    }

    /** {@code error.type} of OpenSearch's error answer, or null. */
    private static String errorType(String body) {
        try {
            String type = new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).path("error").path("type").asText(null);
            return type == null || type.isBlank() ? null : type;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The body of an answer the transport threw for: its {@code Response} type is not public, so it is read
     * reflectively; anything unexpected gives "".
     */
    private static String bodyOf(org.opensearch.client.transport.httpclient5.ResponseException answer) {
        try {
            Object response = answer.getClass().getMethod("getResponse").invoke(answer);
            java.lang.reflect.Method entityOf = response.getClass().getMethod("getEntity");
            entityOf.setAccessible(true);
            Object entity = entityOf.invoke(response);
            return entity instanceof org.apache.hc.core5.http.HttpEntity http
                    ? org.apache.hc.core5.http.io.entity.EntityUtils.toString(http, java.nio.charset.StandardCharsets.UTF_8) : "";
        } catch (ReflectiveOperationException | RuntimeException | IOException | org.apache.hc.core5.http.ParseException e) {
            return "";
        }
    }

    private static String bodyOf(Response response) {
        return response.getBody().map(body -> body.bodyAsString()).orElse("");
    }
}
