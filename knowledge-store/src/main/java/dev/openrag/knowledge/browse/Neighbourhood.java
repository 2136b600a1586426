package dev.openrag.knowledge.browse;

import java.util.List;
import java.util.Map;

/**
 * A piece of the knowledge graph around an entity or a document, ready to draw: nodes (with a
 * stable {@code id}, their label and display name) and the typed edges between them.
 */
public record Neighbourhood(String center, List<Node> nodes, List<Edge> edges) {

    public record Node(String id, String label, String name, Map<String, Object> properties) {
    }

    public record Edge(String from, String to, String type) {
    }
}
