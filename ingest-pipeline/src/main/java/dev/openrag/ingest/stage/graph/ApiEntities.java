package dev.openrag.ingest.stage.graph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.openrag.schemas.ApiGraph;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.GraphExtracted.Entity;
import dev.openrag.schemas.GraphExtracted.Mention;

/**
 * Adds an OpenAPI spec's schemas and tags to the extracted entities, and makes each chunk
 * mention the entities its node stands for or relates to, so graph retrieval reaches an
 * operation's chunk from the schemas and tags a question names.
 */
final class ApiEntities {

    private ApiEntities() {
    }

    static RuleBasedGraphExtractor.Extraction merge(RuleBasedGraphExtractor.Extraction rules, ApiGraph api, List<Chunk> chunks) {
        Map<String, Entity> entities = new LinkedHashMap<>();
        rules.entities().forEach(entity -> entities.put(entity.id(), entity));
        Set<String> apiEntities = new LinkedHashSet<>();
        for (ApiGraph.Node node : api.nodes()) {
            if (ApiGraph.ENTITY.equals(node.label())) {
                entities.put(node.id(), new Entity(node.id(), node.name(), node.type()));
                apiEntities.add(node.id());
            }
        }
        Map<String, Set<String>> related = new HashMap<>();
        for (ApiGraph.Edge edge : api.edges()) {
            if (apiEntities.contains(edge.toId()) && !"api".equals(edge.fromId())) {
                related.computeIfAbsent(edge.fromId(), id -> new LinkedHashSet<>()).add(edge.toId());
            }
        }
        Map<Integer, String> chunkIds = new HashMap<>();
        chunks.forEach(chunk -> chunkIds.put(chunk.index(), chunk.chunkId()));
        Set<Mention> mentions = new LinkedHashSet<>(rules.mentions());
        for (ApiGraph.ChunkLink link : api.chunks()) {
            String chunkId = chunkIds.get(link.chunkIndex());
            if (chunkId == null) {
                continue;
            }
            if (apiEntities.contains(link.nodeId())) {
                mentions.add(new Mention(chunkId, link.nodeId()));
            }
            related.getOrDefault(link.nodeId(), Set.of()).forEach(entity -> mentions.add(new Mention(chunkId, entity)));
        }
        return new RuleBasedGraphExtractor.Extraction(new ArrayList<>(entities.values()), rules.relations(), new ArrayList<>(mentions));
    }
}
