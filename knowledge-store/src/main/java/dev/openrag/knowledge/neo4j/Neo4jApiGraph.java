package dev.openrag.knowledge.neo4j;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.neo4j.driver.TransactionContext;

import dev.openrag.knowledge.text.NodeWords;
import dev.openrag.schemas.ApiGraph;

/**
 * Writes the graph of an OpenAPI spec: {@code Api}, {@code Operation}, {@code Example} and
 * {@code DocChunk} nodes belong to their document ({@code documentUid}) and are replaced with it;
 * schema and tag {@code Entity} nodes are shared by the collection like any entity. An operation
 * (or schema) reaches its searchable chunk through {@code HAS_CHUNK}.
 */
final class Neo4jApiGraph {

    private static final List<String> OWNED_LABELS = List.of(ApiGraph.API, ApiGraph.OPERATION, ApiGraph.EXAMPLE, ApiGraph.DOC_CHUNK);

    private Neo4jApiGraph() {
    }

    /** Removes the document's previous API nodes and writes {@code api} (none when null). */
    static void replace(TransactionContext tx, String collection, String documentId, String documentUid, ApiGraph api) {
        for (String label : OWNED_LABELS) {
            tx.run("MATCH (n:" + label + " {documentUid: $documentUid}) DETACH DELETE n", Map.of("documentUid", documentUid)).consume();
        }
        if (api == null) {
            return;
        }
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (ApiGraph.Node node : api.nodes()) {
            Map<String, Object> row = new HashMap<>();
            row.put("uid", uid(collection, documentUid, node.id(), node.label()));
            row.put("label", node.label());
            row.put("name", node.name());
            row.put("type", node.type());
            Map<String, String> properties = node.properties() == null ? Map.of() : node.properties();
            row.put("properties", properties);
            row.put("words", switch (node.label()) {
                case ApiGraph.ENTITY -> NodeWords.entity(node.name());
                case ApiGraph.OPERATION -> NodeWords.operation(node.name(), properties.get("method"), properties.get("path"),
                        properties.get("summary"));
                default -> null;
            });
            nodes.add(row);
        }
        Map<String, String> labels = new HashMap<>();
        api.nodes().forEach(node -> labels.put(node.id(), node.label()));
        List<Map<String, Object>> edges = api.edges().stream()
                .filter(edge -> labels.containsKey(edge.fromId()) && labels.containsKey(edge.toId()))
                .filter(edge -> ApiGraph.EDGE_TYPES.contains(edge.type()))
                .map(edge -> Map.<String, Object>of(
                        "from", uid(collection, documentUid, edge.fromId(), labels.get(edge.fromId())),
                        "to", uid(collection, documentUid, edge.toId(), labels.get(edge.toId())),
                        "fromLabel", labels.get(edge.fromId()), "toLabel", labels.get(edge.toId()),
                        "type", edge.type()))
                .toList();
        List<Map<String, Object>> chunks = api.chunks().stream()
                .filter(link -> labels.containsKey(link.nodeId()) && !ApiGraph.ENTITY.equals(labels.get(link.nodeId())))
                .map(link -> Map.<String, Object>of(
                        "uid", uid(collection, documentUid, link.nodeId(), labels.get(link.nodeId())),
                        "label", labels.get(link.nodeId()),
                        "chunkId", collection + "/" + documentId + "#" + link.chunkIndex(),
                        "index", link.chunkIndex()))
                .toList();
        // labels are spelled out per statement (not dynamic) so every lookup uses its uid constraint
        for (String label : ApiGraph.LABELS) {
            List<Map<String, Object>> rows = nodes.stream().filter(row -> label.equals(row.get("label"))).toList();
            tx.run("UNWIND $rows AS row MERGE (n:" + label + " {uid: row.uid})"
                    + " SET n += row.properties, n.name = row.name, n.type = row.type, n.words = row.words, n.collection = $collection"
                    + (label.equals(ApiGraph.ENTITY) ? "" : ", n.documentId = $documentId, n.documentUid = $documentUid"),
                    Map.of("rows", rows, "collection", collection, "documentId", documentId, "documentUid", documentUid)).consume();
        }
        for (Map<String, Object> edge : edges) {
            tx.run("MATCH (a:" + edge.get("fromLabel") + " {uid: $from}), (b:" + edge.get("toLabel") + " {uid: $to})"
                    + " MERGE (a)-[:" + edge.get("type") + "]->(b)", edge).consume();
        }
        // the chunk sink may not have written the chunk yet: create it bare, it fills it in later
        for (Map<String, Object> chunk : chunks) {
            Map<String, Object> params = new HashMap<>(chunk);
            params.put("collection", collection);
            params.put("documentId", documentId);
            tx.run("MATCH (n:" + chunk.get("label") + " {uid: $uid})"
                    + " MERGE (ch:Chunk {chunkId: $chunkId})"
                    + " ON CREATE SET ch.collection = $collection, ch.documentId = $documentId, ch.chunkIndex = $index"
                    + " MERGE (n)-[:HAS_CHUNK]->(ch)", params).consume();
        }
    }

    /** Entities are the collection's ({@code collection:id}, as the extractors' are); the rest the document's. */
    private static String uid(String collection, String documentUid, String nodeId, String label) {
        return ApiGraph.ENTITY.equals(label) ? collection + ":" + nodeId : documentUid + "#" + nodeId;
    }
}
