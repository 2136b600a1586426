package dev.openrag.schemas;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

/**
 * Reads and writes events as JSON. Reading validates against the event's JSON Schema first, so
 * a bad event fails with messages that name its fields instead of a Jackson stack trace.
 * Unknown fields are tolerated (a newer producer may add some); a field named twice is refused.
 */
public final class EventCodec {

    private final ObjectMapper mapper = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // a field named twice would be read as its last value, the others dropped without a word
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    private final Map<EventType, Schema> schemas = new EnumMap<>(EventType.class);

    public EventCodec() {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
        for (EventType type : EventType.values()) {
            try (InputStream in = EventCodec.class.getResourceAsStream(type.schemaResource())) {
                if (in == null) {
                    throw new IllegalStateException("missing schema resource " + type.schemaResource());
                }
                schemas.put(type, registry.getSchema(in));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    public String toJson(EventEnvelope event) {
        try {
            return mapper.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot serialise " + event.getClass().getSimpleName(), e);
        }
    }

    public <T extends EventEnvelope> T fromJson(String json, Class<T> recordType) {
        EventType type = EventType.of(recordType);
        JsonNode tree = parse(json, type);
        List<String> problems = validate(type, tree);
        if (!problems.isEmpty()) {
            throw new InvalidEventException(type, problems);
        }
        T event;
        try {
            event = mapper.treeToValue(tree, recordType);
        } catch (JsonProcessingException e) {
            throw new InvalidEventException(type, List.of(e.getOriginalMessage()));
        }
        // the rules a schema cannot say (reserved words, dates): any producer may write the entry event
        if (event instanceof DocumentArrived arrived) {
            try {
                Metadata.fromProducer(arrived.metadata());
            } catch (IllegalArgumentException e) {
                throw new InvalidEventException(type, List.of("$.metadata: " + e.getMessage()));
            }
        }
        return event;
    }

    /** Schema problems of a JSON tree, each naming its field (empty when valid). */
    public List<String> validate(EventType type, JsonNode tree) {
        return schemas.get(type).validate(tree).stream()
                .map(Error::toString)
                .sorted()
                .toList();
    }

    public JsonNode toTree(EventEnvelope event) {
        return mapper.valueToTree(event);
    }

    private JsonNode parse(String json, EventType type) {
        if (json == null || json.isBlank()) {
            throw new InvalidEventException(type, List.of("$: empty message, expected a JSON object"));
        }
        try {
            return mapper.readTree(json);
        } catch (JsonProcessingException e) {
            var location = e.getLocation();
            String where = location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
            throw new InvalidEventException(type, List.of("$: not valid JSON" + where + ": " + e.getOriginalMessage()));
        }
    }
}
