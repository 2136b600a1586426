package dev.openrag.knowledge.neo4j;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;
import org.neo4j.driver.types.Node;

import dev.openrag.knowledge.browse.CollectionSummary;
import dev.openrag.knowledge.browse.DocumentDetail;
import dev.openrag.knowledge.browse.DocumentSummary;
import dev.openrag.knowledge.browse.Neighbourhood;
import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.knowledge.port.KnowledgeBrowser;

/** {@link KnowledgeBrowser} over the Neo4j graph the ingest sinks write (ARCHITECTURE §4). */
public final class Neo4jKnowledgeBrowser implements KnowledgeBrowser {

    /** Longest path an entity neighbourhood follows (each hop multiplies the graph drawn). */
    public static final int MAX_HOPS = 3;

    private final Driver driver;

    public Neo4jKnowledgeBrowser(Driver driver) {
        this.driver = driver;
    }

    @Override
    public List<CollectionSummary> collections() {
        return read("""
                MATCH (d:Document)
                WITH d.collection AS name, count(d) AS documents, sum(coalesce(d.chunkCount, 0)) AS chunks
                CALL (name) { MATCH (e:Entity {collection: name}) RETURN count(e) AS entities }
                RETURN name, documents, chunks, entities ORDER BY name""", Map.of()).stream()
                .map(row -> new CollectionSummary(row.get("name").asString(), row.get("documents").asLong(),
                        row.get("chunks").asLong(), row.get("entities").asLong()))
                .toList();
    }

    @Override
    public List<DocumentSummary> documents(String collection, String filter, DocumentFilter metadata, int offset, int limit) {
        Map<String, Object> params = new HashMap<>();
        params.put("offset", offset);
        params.put("limit", limit);
        return read(matching(collection, filter, metadata, params) + """
                RETURN d ORDER BY toLower(coalesce(d.title, d.sourceUri, d.documentId)), d.documentId
                SKIP $offset LIMIT $limit""", params).stream()
                .map(row -> summary(row.get("d").asNode())).toList();
    }

    @Override
    public long countDocuments(String collection, String filter, DocumentFilter metadata) {
        Map<String, Object> params = new HashMap<>();
        return read(matching(collection, filter, metadata, params) + "RETURN count(d) AS n", params).get(0).get("n").asLong();
    }

    /** The collection's documents whose title or uri contains {@code filter} and whose metadata matches (a filter as in search). */
    private static String matching(String collection, String filter, DocumentFilter metadata, Map<String, Object> params) {
        params.put("collection", collection);
        params.put("filter", filter);
        return """
                MATCH (d:Document {collection: $collection})
                WHERE ($filter IS NULL OR toLower(coalesce(d.title, '')) CONTAINS toLower($filter)
                   OR toLower(coalesce(d.sourceUri, '')) CONTAINS toLower($filter))
                """ + (metadata == null ? "" : "  AND (" + Neo4jDocumentMetadata.cypher(metadata, params) + ")\n");
    }

    @Override
    public Optional<DocumentDetail> document(String collection, String documentId) {
        List<Record> rows = read("""
                MATCH (d:Document {uid: $uid})
                OPTIONAL MATCH (ch:Chunk {collection: $collection, documentId: $documentId}) WHERE ch.text IS NOT NULL
                WITH d, ch ORDER BY ch.chunkIndex
                RETURN d, collect(ch) AS chunks""", Map.of("uid", Neo4jGraphStore.documentUid(collection, documentId),
                "collection", collection, "documentId", documentId));
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        List<DocumentDetail.ChunkView> chunks = rows.get(0).get("chunks").asList(value -> {
            Node chunk = value.asNode();
            return new DocumentDetail.ChunkView(chunk.get("chunkId").asString(), chunk.get("chunkIndex").asInt(),
                    chunk.get("headingPath").isNull() ? List.of() : chunk.get("headingPath").asList(Value::asString),
                    text(chunk.get("context")), text(chunk.get("text")));
        });
        return Optional.of(new DocumentDetail(summary(rows.get(0).get("d").asNode()), chunks));
    }

    @Override
    public Optional<Neighbourhood> entityNeighbourhood(String collection, String entity, int hops, int limit) {
        List<Record> center = read("""
                MATCH (e:Entity {collection: $collection})
                WHERE e.uid = $entity OR toLower(e.name) = toLower($entity)
                RETURN e ORDER BY COUNT { (e)<-[:MENTIONS]-() } DESC LIMIT 1""", Map.of("collection", collection, "entity", entity));
        if (center.isEmpty()) {
            return Optional.empty();
        }
        Node start = center.get(0).get("e").asNode();
        int depth = Math.max(1, Math.min(MAX_HOPS, hops));
        // Locale.ROOT: digits of some locales (ar-EG: ٢) are no Cypher number
        List<Record> edges = read(String.format(Locale.ROOT, """
                MATCH (e:Entity {uid: $uid})
                MATCH p = (e)-[:RELATED_TO|MENTIONS|RELATES_TO|PART_OF|HAS_EXAMPLE|HAS_DOCUMENTATION*1..%d]-(n)
                WITH p LIMIT $limit
                UNWIND relationships(p) AS r
                WITH DISTINCT r
                RETURN startNode(r) AS a, endNode(r) AS b, type(r) AS type""", depth),
                Map.of("uid", start.get("uid").asString(), "limit", limit));
        return Optional.of(neighbourhood(start, edges));
    }

    @Override
    public Optional<Neighbourhood> documentNeighbourhood(String collection, String documentId, int limit) {
        List<Record> center = read("MATCH (d:Document {uid: $uid}) RETURN d",
                Map.of("uid", Neo4jGraphStore.documentUid(collection, documentId)));
        if (center.isEmpty()) {
            return Optional.empty();
        }
        Node start = center.get(0).get("d").asNode();
        List<Record> edges = read("""
                MATCH p = (d:Document {uid: $uid})-[:HAS_SECTION*1..7]->(:Section)-[:HAS_CHUNK]->(ch:Chunk)
                OPTIONAL MATCH (ch)-[m:MENTIONS]->(:Entity)
                OPTIONAL MATCH (ch)<-[o:HAS_CHUNK]-(:Operation)
                WITH collect(relationships(p)) AS paths, collect(DISTINCT m) + collect(DISTINCT o) AS links
                UNWIND reduce(all = [], rels IN paths | all + rels) + links AS r
                WITH DISTINCT r LIMIT $limit
                RETURN startNode(r) AS a, endNode(r) AS b, type(r) AS type""",
                Map.of("uid", start.get("uid").asString(), "limit", limit));
        return Optional.of(neighbourhood(start, edges));
    }

    private static Neighbourhood neighbourhood(Node start, List<Record> edges) {
        Map<String, Neighbourhood.Node> nodes = new LinkedHashMap<>();
        nodes.put(id(start), node(start));
        List<Neighbourhood.Edge> links = new ArrayList<>();
        for (Record edge : edges) {
            Node a = edge.get("a").asNode();
            Node b = edge.get("b").asNode();
            nodes.putIfAbsent(id(a), node(a));
            nodes.putIfAbsent(id(b), node(b));
            links.add(new Neighbourhood.Edge(id(a), id(b), edge.get("type").asString()));
        }
        return new Neighbourhood(id(start), List.copyOf(nodes.values()), links);
    }

    private static String id(Node node) {
        return node.get("chunkId").isNull() ? node.get("uid").asString() : node.get("chunkId").asString();
    }

    private static Neighbourhood.Node node(Node node) {
        String label = node.labels().iterator().next();
        Map<String, Object> properties = new LinkedHashMap<>();
        String name = switch (label) {
            case "Entity" -> {
                properties.put("type", text(node.get("type")));
                yield text(node.get("name"));
            }
            case "Chunk" -> {
                properties.put("documentId", text(node.get("documentId")));
                properties.put("chunkIndex", node.get("chunkIndex").asInt(0));
                yield (node.get("title").isNull() ? text(node.get("documentId")) : node.get("title").asString())
                        + " #" + node.get("chunkIndex").asInt(0);
            }
            case "Document" -> {
                properties.put("documentId", text(node.get("documentId")));
                properties.put("sourceUri", text(node.get("sourceUri")));
                yield node.get("title").isNull() ? text(node.get("documentId")) : node.get("title").asString();
            }
            case "Operation" -> {
                properties.put("method", text(node.get("method")));
                properties.put("path", text(node.get("path")));
                properties.put("summary", text(node.get("summary")));
                yield text(node.get("method")) + " " + text(node.get("path"));
            }
            case "Api", "Example", "DocChunk" -> text(node.get("name"));
            default -> text(node.get("title"));
        };
        return new Neighbourhood.Node(id(node), label, name, properties);
    }

    private static DocumentSummary summary(Node d) {
        return new DocumentSummary(d.get("documentId").asString(), d.get("collection").asString(), text(d.get("title")),
                text(d.get("sourceUri")), d.get("chunkCount").asInt(0),
                d.get("updatedAt").isNull() ? null : d.get("updatedAt").asZonedDateTime().toOffsetDateTime().toString(),
                Neo4jDocumentMetadata.fromJson(text(d.get("metadataJson"))));
    }

    private static String text(Value value) {
        return value == null || value.isNull() ? null : value.asString();
    }

    private List<Record> read(String cypher, Map<String, Object> params) {
        try (Session session = driver.session()) {
            return session.executeRead(tx -> tx.run(cypher, params).list());
        }
    }
}
