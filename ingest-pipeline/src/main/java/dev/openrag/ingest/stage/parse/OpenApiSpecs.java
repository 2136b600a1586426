package dev.openrag.ingest.stage.parse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.fasterxml.jackson.core.JsonProcessingException;

import dev.openrag.schemas.ApiGraph;
import dev.openrag.schemas.PremadeChunk;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.tags.Tag;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;

/**
 * OpenAPI 3.x specs (JSON or YAML, recognised by content) read with swagger-parser into an
 * {@link ApiGraph} and one searchable chunk per operation and schema, plus an overview chunk.
 * An operation's chunk holds what a question about it would use: method, path, summary,
 * parameters, bodies and examples, so "how do I water bed 4 for ten minutes" finds it.
 * References are not resolved over the network ({@code resolve=false}); local {@code $ref}s are
 * followed by name.
 */
public final class OpenApiSpecs {

    /** The text claims to be an OpenAPI 3 spec but swagger-parser cannot read it. */
    public static final class InvalidSpec extends RuntimeException {
        InvalidSpec(String message) {
            super(message);
        }
    }

    /** What the parse stage publishes for a spec. */
    public record Spec(String title, ApiGraph graph, List<PremadeChunk> chunks, List<String> problems) {
    }

    public static final String MEDIA_TYPE = "application/vnd.oai.openapi";
    /** A top-level YAML key, or a quoted JSON key, with a 3.x version. */
    private static final Pattern OPENAPI_3 = Pattern.compile("(?m)^openapi\\s*:\\s*[\"']?3\\.\\d|\"openapi\"\\s*:\\s*\"3\\.\\d");
    private static final int SNIFF_CHARS = 4096;

    private OpenApiSpecs() {
    }

    /** An {@code openapi: 3.x} key near the top of a JSON or YAML text. */
    public static boolean looksLikeSpec(String text) {
        String head = text.length() > SNIFF_CHARS ? text.substring(0, SNIFF_CHARS) : text;
        String start = head.stripLeading();
        return (start.startsWith("{") || !start.startsWith("<")) && OPENAPI_3.matcher(head).find();
    }

    public static Spec read(String text, String fallbackTitle) {
        ParseOptions options = new ParseOptions();
        options.setResolve(false); // never fetch remote $refs while ingesting
        SwaggerParseResult result;
        try {
            result = new OpenAPIV3Parser().readContents(text, null, options);
        } catch (RuntimeException e) {
            throw new InvalidSpec("invalid OpenAPI spec: " + e.getMessage());
        }
        List<String> problems = result.getMessages() == null ? List.of() : List.copyOf(result.getMessages());
        OpenAPI api = result.getOpenAPI();
        if (api == null || api.getPaths() == null || api.getPaths().isEmpty()) {
            throw new InvalidSpec("invalid OpenAPI spec: " + (problems.isEmpty()
                    ? "it has no paths" : String.join("; ", problems)));
        }
        return new Builder(api, fallbackTitle).build(problems);
    }

    /** Walks the spec once, collecting nodes, edges and chunks. */
    private static final class Builder {
        private final OpenAPI api;
        private final String title;
        private final Map<String, ApiGraph.Node> nodes = new LinkedHashMap<>();
        private final Set<ApiGraph.Edge> edges = new LinkedHashSet<>();
        private final List<PremadeChunk> chunks = new ArrayList<>();
        private final List<ApiGraph.ChunkLink> links = new ArrayList<>();

        Builder(OpenAPI api, String fallbackTitle) {
            this.api = api;
            String declared = api.getInfo() == null ? null : api.getInfo().getTitle();
            this.title = declared == null || declared.isBlank() ? (fallbackTitle == null ? "API" : fallbackTitle) : declared.strip();
        }

        Spec build(List<String> problems) {
            String version = api.getInfo() == null ? null : api.getInfo().getVersion();
            node("api", ApiGraph.API, title, ApiGraph.API, props("version", version,
                    "servers", api.getServers() == null ? null : api.getServers().stream().map(s -> s.getUrl()).collect(Collectors.joining(", "))));
            documentation("api", api.getInfo() == null ? null : api.getInfo().getDescription());
            StringBuilder overview = new StringBuilder("API ").append(title).append(version == null ? "" : " " + version).append('\n');
            appendIfPresent(overview, api.getInfo() == null ? null : api.getInfo().getDescription());
            int overviewChunk = addChunk("api", "");

            if (api.getTags() != null) {
                for (Tag tag : api.getTags()) {
                    String id = tagEntity(tag.getName());
                    documentation(id, tag.getDescription());
                }
            }
            Map<String, Schema> schemas = api.getComponents() == null || api.getComponents().getSchemas() == null
                    ? Map.of() : api.getComponents().getSchemas();
            schemas.keySet().forEach(this::schemaEntity);

            overview.append("Operations:\n");
            api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
                String line = operation(path, method, item, operation);
                overview.append("- ").append(line).append('\n');
            }));
            schemas.forEach(this::schema);
            chunks.set(overviewChunk, new PremadeChunk(null, overviewChunk, overview.toString().strip()));
            return new Spec(title, new ApiGraph(title, version, List.copyOf(nodes.values()), List.copyOf(edges), List.copyOf(links)),
                    List.copyOf(chunks), problems);
        }

        private String operation(String path, PathItem.HttpMethod httpMethod, PathItem item, Operation operation) {
            String method = httpMethod.name();
            String id = "op:" + method + " " + path;
            String name = operation.getOperationId() != null ? operation.getOperationId() : method + " " + path;
            List<Parameter> parameters = new ArrayList<>();
            if (item.getParameters() != null) {
                parameters.addAll(item.getParameters());
            }
            if (operation.getParameters() != null) {
                parameters.addAll(operation.getParameters());
            }
            List<String> parameterLines = parameters.stream().map(Builder::describe).toList();
            node(id, ApiGraph.OPERATION, name, ApiGraph.OPERATION, props("method", method, "path", path,
                    "operationId", operation.getOperationId(), "summary", operation.getSummary(),
                    "parameters", String.join("\n", parameterLines)));
            edge("api", id, "HAS_OPERATION");
            documentation(id, operation.getDescription());
            if (operation.getTags() != null) {
                operation.getTags().forEach(tag -> edge(id, tagEntity(tag), "PART_OF"));
            }

            StringBuilder text = new StringBuilder(method).append(' ').append(path);
            if (operation.getSummary() != null) {
                text.append(" — ").append(operation.getSummary().strip());
            }
            text.append('\n');
            if (operation.getOperationId() != null) {
                text.append("Operation id: ").append(operation.getOperationId()).append('\n');
            }
            if (operation.getTags() != null && !operation.getTags().isEmpty()) {
                text.append("Tags: ").append(String.join(", ", operation.getTags())).append('\n');
            }
            appendIfPresent(text, operation.getDescription());
            if (!parameterLines.isEmpty()) {
                text.append("Parameters:\n");
                parameterLines.forEach(line -> text.append("- ").append(line).append('\n'));
            }
            for (Parameter parameter : parameters) {
                referencedSchemas(parameter.getSchema()).forEach(schema -> edge(id, schemaEntity(schema), "RELATES_TO"));
                if (parameter.getExample() != null) {
                    example(id, "parameter " + parameter.getName(), null, parameter.getExample(), text);
                }
            }
            if (operation.getRequestBody() != null) {
                text.append("Request body");
                if (operation.getRequestBody().getDescription() != null) {
                    text.append(": ").append(operation.getRequestBody().getDescription().strip());
                }
                text.append(schemaNames(operation.getRequestBody().getContent())).append('\n');
                bodyFields(operation.getRequestBody().getContent(), text);
                content(id, "request", operation.getRequestBody().getContent(), text);
            }
            if (operation.getResponses() != null) {
                text.append("Responses:\n");
                for (Map.Entry<String, ApiResponse> response : operation.getResponses().entrySet()) {
                    ApiResponse value = response.getValue();
                    text.append("- ").append(response.getKey()).append(' ')
                            .append(value.getDescription() == null ? "" : value.getDescription().strip())
                            .append(schemaNames(value.getContent())).append('\n');
                    content(id, "response " + response.getKey(), value.getContent(), text);
                }
            }
            addChunk(id, text.toString().strip());
            return method + " " + path + (operation.getSummary() == null ? "" : " — " + operation.getSummary().strip())
                    + (operation.getOperationId() == null ? "" : " (" + operation.getOperationId() + ")");
        }

        /** Links the schemas of a body and turns its examples into Example nodes and chunk text. */
        private void content(String operationId, String kind, Content content, StringBuilder text) {
            if (content == null) {
                return;
            }
            content.forEach((mediaType, media) -> {
                referencedSchemas(media.getSchema()).forEach(schema -> edge(operationId, schemaEntity(schema), "RELATES_TO"));
                if (media.getExample() != null) {
                    example(operationId, kind, mediaType, media.getExample(), text);
                }
                if (media.getExamples() != null) {
                    media.getExamples().forEach((name, example) -> {
                        if (example.getValue() != null) {
                            example(operationId, kind + " " + name, mediaType, example.getValue(), text);
                        }
                    });
                }
            });
        }

        private void example(String operationId, String kind, String mediaType, Object value, StringBuilder text) {
            String rendered = render(value);
            String id = "example:" + operationId.substring(3) + " " + kind;
            node(id, ApiGraph.EXAMPLE, kind + " example", ApiGraph.EXAMPLE, props("kind", kind, "mediaType", mediaType, "value", rendered));
            edge(operationId, id, "HAS_EXAMPLE");
            text.append("Example ").append(kind).append(": ").append(rendered).append('\n');
        }

        private void schema(String name, Schema<?> schema) {
            String id = schemaEntity(name);
            documentation(id, schema.getDescription());
            StringBuilder text = new StringBuilder("Schema ").append(name).append('\n');
            appendIfPresent(text, schema.getDescription());
            String type = typeOf(schema);
            if (type != null) {
                text.append("Type: ").append(type).append('\n');
            }
            if (schema.getRequired() != null && !schema.getRequired().isEmpty()) {
                text.append("Required: ").append(String.join(", ", schema.getRequired())).append('\n');
            }
            Map<String, Schema> properties = schema.getProperties() == null ? Map.of() : schema.getProperties();
            if (!properties.isEmpty()) {
                text.append("Properties:\n");
                properties.forEach((property, value) -> text.append("- ").append(property).append(" (").append(typeOf(value)).append(')')
                        .append(value.getDescription() == null ? "" : ": " + value.getDescription().strip()).append('\n'));
            }
            referencedSchemas(schema).stream().filter(other -> !other.equals(name))
                    .forEach(other -> edge(id, schemaEntity(other), "RELATES_TO"));
            edge(id, "api", "PART_OF");
            addChunk(id, text.toString().strip());
        }

        private String schemaEntity(String name) {
            String id = "schema:" + key(name);
            node(id, ApiGraph.ENTITY, name, "schema", Map.of());
            return id;
        }

        private String tagEntity(String name) {
            String id = "tag:" + key(name);
            if (!nodes.containsKey(id)) {
                node(id, ApiGraph.ENTITY, name, "tag", Map.of());
                edge(id, "api", "PART_OF");
            }
            return id;
        }

        private void documentation(String ownerId, String description) {
            if (description == null || description.isBlank()) {
                return;
            }
            String id = "doc:" + ownerId;
            node(id, ApiGraph.DOC_CHUNK, nodes.get(ownerId).name() + " documentation", ApiGraph.DOC_CHUNK,
                    props("text", description.strip()));
            edge(ownerId, id, "HAS_DOCUMENTATION");
        }

        private void node(String id, String label, String name, String type, Map<String, String> properties) {
            nodes.putIfAbsent(id, new ApiGraph.Node(id, label, name, type, properties));
        }

        private void edge(String from, String to, String type) {
            edges.add(new ApiGraph.Edge(from, to, type));
        }

        private int addChunk(String nodeId, String text) {
            int index = chunks.size();
            chunks.add(new PremadeChunk(null, index, text));
            links.add(new ApiGraph.ChunkLink(index, nodeId));
            return index;
        }

        /** The fields of a request body's schemas, so the operation's chunk reads on its own. */
        private void bodyFields(Content content, StringBuilder text) {
            if (content == null) {
                return;
            }
            Map<String, Schema> schemas = api.getComponents() == null || api.getComponents().getSchemas() == null
                    ? Map.of() : api.getComponents().getSchemas();
            Set<String> seen = new LinkedHashSet<>();
            for (MediaType media : content.values()) {
                Schema<?> schema = media.getSchema();
                if (schema != null && schema.get$ref() != null) {
                    String name = schema.get$ref().substring(schema.get$ref().lastIndexOf('/') + 1);
                    schema = seen.add(name) ? schemas.get(name) : null;
                }
                if (schema == null || schema.getProperties() == null) {
                    continue;
                }
                List<String> required = schema.getRequired() == null ? List.of() : schema.getRequired();
                schema.getProperties().forEach((field, value) -> text.append("- ").append(field).append(" (").append(typeOf(value))
                        .append(required.contains(field) ? ", required" : ", optional").append(')')
                        .append(value.getDescription() == null ? "" : ": " + value.getDescription().strip()).append('\n'));
            }
        }

        private static String describe(Parameter parameter) {
            StringBuilder line = new StringBuilder(parameter.getName() == null ? "?" : parameter.getName()).append(" (")
                    .append(parameter.getIn() == null ? "?" : parameter.getIn()).append(", ").append(typeOf(parameter.getSchema()))
                    .append(Boolean.TRUE.equals(parameter.getRequired()) ? ", required" : ", optional").append(')');
            if (parameter.getDescription() != null) {
                line.append(": ").append(parameter.getDescription().strip());
            }
            return line.toString();
        }

        private static String schemaNames(Content content) {
            if (content == null) {
                return "";
            }
            Set<String> names = new LinkedHashSet<>();
            content.values().forEach(media -> names.addAll(referencedSchemas(media.getSchema())));
            return names.isEmpty() ? "" : " (" + String.join(", ", names) + ")";
        }
    }

    /** Names of the component schemas a schema refers to, through arrays, properties and compositions. */
    static Set<String> referencedSchemas(Schema<?> schema) {
        Set<String> names = new LinkedHashSet<>();
        collect(schema, names, 0);
        return names;
    }

    private static void collect(Schema<?> schema, Set<String> names, int depth) {
        if (schema == null || depth > 8) {
            return;
        }
        if (schema.get$ref() != null) {
            names.add(schema.get$ref().substring(schema.get$ref().lastIndexOf('/') + 1));
            return;
        }
        collect(schema.getItems(), names, depth + 1);
        if (schema.getProperties() != null) {
            schema.getProperties().values().forEach(property -> collect(property, names, depth + 1));
        }
        for (List<Schema> composed : java.util.Arrays.asList(schema.getAllOf(), schema.getOneOf(), schema.getAnyOf())) {
            if (composed != null) {
                composed.forEach(part -> collect(part, names, depth + 1));
            }
        }
        if (schema.getAdditionalProperties() instanceof Schema<?> values) {
            collect(values, names, depth + 1);
        }
    }

    private static String typeOf(Schema<?> schema) {
        if (schema == null) {
            return "any";
        }
        if (schema.get$ref() != null) {
            return schema.get$ref().substring(schema.get$ref().lastIndexOf('/') + 1);
        }
        String type = schema.getType() != null ? schema.getType()
                : schema.getTypes() != null && !schema.getTypes().isEmpty() ? String.join("|", schema.getTypes()) : "object";
        if ("array".equals(type)) {
            return "array of " + typeOf(schema.getItems());
        }
        String format = schema.getFormat() == null ? "" : " " + schema.getFormat();
        String values = schema.getEnum() == null || schema.getEnum().isEmpty() ? ""
                : ": " + schema.getEnum().stream().map(String::valueOf).collect(Collectors.joining("|"));
        return type + format + values;
    }

    private static String render(Object value) {
        if (value instanceof String text) {
            return text.strip();
        }
        try {
            return Json.mapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            return String.valueOf(value);
        }
    }

    private static void appendIfPresent(StringBuilder text, String paragraph) {
        if (paragraph != null && !paragraph.isBlank()) {
            text.append(paragraph.strip()).append('\n');
        }
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }

    /** Properties without nulls (Kafka events and Neo4j both dislike null map values). */
    private static Map<String, String> props(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            if (keysAndValues[i + 1] != null && !keysAndValues[i + 1].isBlank()) {
                map.put(keysAndValues[i], keysAndValues[i + 1]);
            }
        }
        return map;
    }
}
