package dev.openrag.schemas;

import java.util.List;
import java.util.Map;

/**
 * The graph of an OpenAPI 3.x spec, built by the parse stage and carried to the graph sink:
 * nodes labelled {@code Api}, {@code Operation}, {@code Example}, {@code DocChunk} or {@code Entity}
 * (schemas and tags), edges {@code HAS_OPERATION}, {@code HAS_EXAMPLE}, {@code HAS_DOCUMENTATION},
 * {@code PART_OF}, {@code RELATES_TO}, and which chunk (by index) presents which node.
 *
 * <p>Node ids are local to the document ({@code op:GET /pets}); entity ids ({@code schema:pet},
 * {@code tag:pet}) are shared by the collection, like the rule extractor's.
 */
public record ApiGraph(String title, String version, List<Node> nodes, List<Edge> edges, List<ChunkLink> chunks) {

    public static final String API = "Api";
    public static final String OPERATION = "Operation";
    public static final String EXAMPLE = "Example";
    public static final String DOC_CHUNK = "DocChunk";
    public static final String ENTITY = "Entity";

    public static final List<String> LABELS = List.of(API, OPERATION, EXAMPLE, DOC_CHUNK, ENTITY);
    public static final List<String> EDGE_TYPES = List.of("HAS_OPERATION", "HAS_EXAMPLE", "HAS_DOCUMENTATION", "PART_OF", "RELATES_TO");

    /** {@code type} is the entity type (schema, tag) for {@link #ENTITY} nodes, else the label. */
    public record Node(String id, String label, String name, String type, Map<String, String> properties) {
    }

    public record Edge(String fromId, String toId, String type) {
    }

    /** The chunk at {@code chunkIndex} is the searchable text of node {@code nodeId}. */
    public record ChunkLink(int chunkIndex, String nodeId) {
    }
}
