package dev.openrag.knowledge.neo4j;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.TransactionContext;

import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.GraphStore;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.text.NodeWords;
import dev.openrag.schemas.GraphExtracted;
import dev.openrag.schemas.SectionSummary;

/**
 * {@link GraphStore} on Neo4j: {@code (:Document)-[:HAS_SECTION]->(:Section)-[:HAS_CHUNK]->(:Chunk)}
 * where sections form a tree ({@code (:Section)-[:HAS_SECTION]->(:Section)} for nested headings)
 * carrying a summary and its vector ({@code Section.embedding}, {@code Document.summaryEmbedding}),
 * {@code (:Chunk)-[:NEXT]->(:Chunk)}, {@code (:Chunk)-[:MENTIONS]->(:Entity)-[:RELATED_TO]->(:Entity)};
 * chunk vectors live on {@code Chunk.embedding} (the single-machine vector index), entity and
 * operation vectors on {@code Entity.embedding} and {@code Operation.embedding}. Every write is
 * an idempotent upsert keyed by deterministic ids, in one transaction per document.
 */
public final class Neo4jGraphStore implements GraphStore {

    private final Driver driver;

    public Neo4jGraphStore(Driver driver) {
        this.driver = driver;
    }

    public static String documentUid(String collection, String documentId) {
        return collection + "/" + documentId;
    }

    static String sectionUid(String documentUid, List<String> headingPath) {
        return documentUid + "#" + String.join(" > ", headingPath);
    }

    @Override
    public void upsertDocument(String collection, String documentId, String title, String sourceUri,
                               String contentHash, List<IndexedChunk> chunks, List<SectionSummary> summaries) {
        String uid = documentUid(collection, documentId);
        Map<List<String>, SectionSummary> summaryByPath = new HashMap<>();
        summaries.forEach(summary -> summaryByPath.put(summary.headingPath(), summary));
        List<Map<String, Object>> rows = new ArrayList<>();
        List<Map<String, Object>> vectors = new ArrayList<>();
        Map<String, Map<String, Object>> sections = new LinkedHashMap<>(); // the tree: every prefix of every path
        for (IndexedChunk chunk : chunks) {
            List<String> path = chunk.headingPath() == null ? List.of() : chunk.headingPath();
            Map<String, Object> row = new HashMap<>();
            row.put("chunkId", chunk.chunkId());
            row.put("index", chunk.chunkIndex());
            row.put("text", chunk.text());
            row.put("context", chunk.context());
            row.put("headingPath", path);
            row.put("sectionUid", sectionUid(uid, path));
            rows.add(row);
            for (int depth = path.isEmpty() ? 0 : 1; depth <= path.size(); depth++) {
                List<String> prefix = List.copyOf(path.subList(0, depth));
                sections.computeIfAbsent(sectionUid(uid, prefix), key -> section(key, title, prefix,
                        prefix.size() > 1 ? sectionUid(uid, prefix.subList(0, prefix.size() - 1)) : null, summaryByPath.get(prefix)));
            }
            if (chunk.vector() != null) {
                vectors.add(Map.of("chunkId", chunk.chunkId(), "vector", toList(chunk.vector())));
            }
        }
        SectionSummary documentSummary = summaryByPath.get(List.of());
        Map<String, Object> params = new HashMap<>();
        params.put("uid", uid);
        params.put("collection", collection);
        params.put("documentId", documentId);
        params.put("title", title);
        params.put("sourceUri", sourceUri);
        params.put("contentHash", contentHash);
        params.put("count", chunks.size());
        params.put("chunks", rows);
        params.put("vectors", vectors);
        params.put("sections", List.copyOf(sections.values()));
        params.put("sectionUids", List.copyOf(sections.keySet()));
        params.put("summary", documentSummary == null ? null : documentSummary.summary());
        params.put("summaryVector", documentSummary == null || documentSummary.vector() == null ? null : toList(documentSummary.vector()));
        try (Session session = driver.session()) {
            session.executeWrite(tx -> {
                // a new version may have fewer chunks, other sections and other neighbours: reset the structure
                tx.run("""
                        MATCH (ch:Chunk {collection: $collection, documentId: $documentId})
                        OPTIONAL MATCH (ch)-[r:NEXT]->()
                        OPTIONAL MATCH (:Section)-[h:HAS_CHUNK]->(ch)
                        DELETE r, h""", params).consume();
                tx.run("""
                        MATCH (s:Section {collection: $collection, documentId: $documentId})
                        OPTIONAL MATCH ()-[h:HAS_SECTION]->(s)
                        DELETE h""", params).consume();
                tx.run("""
                        MATCH (ch:Chunk {collection: $collection, documentId: $documentId})
                        WHERE ch.chunkIndex >= $count
                        DETACH DELETE ch""", params).consume();
                tx.run("""
                        MERGE (d:Document {uid: $uid})
                        SET d.collection = $collection, d.documentId = $documentId, d.title = $title,
                            d.sourceUri = $sourceUri, d.contentHash = $contentHash, d.chunkCount = $count,
                            d.summary = $summary, d.updatedAt = datetime()
                        WITH d
                        UNWIND $sections AS row
                        MERGE (s:Section {uid: row.uid})
                        SET s.collection = $collection, s.documentId = $documentId, s.title = row.title,
                            s.headingPath = row.headingPath, s.depth = size(row.headingPath), s.summary = row.summary""",
                        params).consume();
                // the tree: top-level sections hang off the document, the others off their parent
                tx.run("""
                        MATCH (d:Document {uid: $uid})
                        UNWIND $sections AS row
                        MATCH (s:Section {uid: row.uid})
                        OPTIONAL MATCH (parent:Section {uid: row.parentUid})
                        FOREACH (p IN CASE WHEN parent IS NULL THEN [d] ELSE [parent] END | MERGE (p)-[:HAS_SECTION]->(s))""",
                        params).consume();
                tx.run("""
                        UNWIND $chunks AS c
                        MATCH (s:Section {uid: c.sectionUid})
                        MERGE (ch:Chunk {chunkId: c.chunkId})
                        SET ch.collection = $collection, ch.documentId = $documentId, ch.chunkIndex = c.index,
                            ch.text = c.text, ch.context = c.context, ch.headingPath = c.headingPath,
                            ch.title = $title, ch.sourceUri = $sourceUri
                        MERGE (s)-[:HAS_CHUNK]->(ch)""", params).consume();
                tx.run("""
                        MATCH (s:Section {collection: $collection, documentId: $documentId})
                        WHERE NOT s.uid IN $sectionUids
                        DETACH DELETE s""", params).consume();
                tx.run("""
                        UNWIND $sections AS row
                        WITH row WHERE row.vector IS NOT NULL
                        MATCH (s:Section {uid: row.uid})
                        CALL db.create.setNodeVectorProperty(s, 'embedding', row.vector)""", params).consume();
                if (params.get("summaryVector") != null) {
                    tx.run("""
                            MATCH (d:Document {uid: $uid})
                            CALL db.create.setNodeVectorProperty(d, 'summaryEmbedding', $summaryVector)""", params).consume();
                }
                tx.run("""
                        MATCH (ch:Chunk {collection: $collection, documentId: $documentId})
                        WITH ch ORDER BY ch.chunkIndex
                        WITH collect(ch) AS chunks
                        UNWIND range(0, size(chunks) - 2) AS i
                        WITH chunks[i] AS a, chunks[i + 1] AS b
                        MERGE (a)-[:NEXT]->(b)""", params).consume();
                tx.run("""
                        UNWIND $vectors AS v
                        MATCH (ch:Chunk {chunkId: v.chunkId})
                        CALL db.create.setNodeVectorProperty(ch, 'embedding', v.vector)""", params).consume();
                return null;
            });
        }
    }

    private static Map<String, Object> section(String uid, String documentTitle, List<String> path, String parentUid,
                                               SectionSummary summary) {
        Map<String, Object> row = new HashMap<>();
        row.put("uid", uid);
        row.put("title", path.isEmpty() ? (documentTitle == null ? "" : documentTitle) : path.get(path.size() - 1));
        row.put("headingPath", path);
        row.put("parentUid", parentUid);
        row.put("summary", summary == null ? null : summary.summary());
        row.put("vector", summary == null || summary.vector() == null ? null : toList(summary.vector()));
        return row;
    }

    @Override
    public void upsertGraph(GraphExtracted graph) {
        String collection = graph.collection();
        Map<String, Object> params = new HashMap<>();
        params.put("collection", collection);
        params.put("documentId", graph.documentId());
        params.put("entities", graph.entities().stream()
                .map(e -> Map.<String, Object>of("uid", collection + ":" + e.id(), "name", e.name(), "type", e.type(),
                        "words", NodeWords.entity(e.name()))).toList());
        params.put("mentions", graph.mentions().stream()
                .map(m -> Map.<String, Object>of("chunkId", m.chunkId(), "uid", collection + ":" + m.entityId(),
                        "index", chunkIndexOf(m.chunkId()))).toList());
        params.put("relations", graph.relations().stream()
                .map(r -> Map.<String, Object>of("from", collection + ":" + r.fromId(), "to", collection + ":" + r.toId(),
                        "type", r.type())).toList());
        try (Session session = driver.session()) {
            session.executeWrite(tx -> {
                List<String> previouslyMentioned = tx.run("""
                        MATCH (:Chunk {collection: $collection, documentId: $documentId})-[r:MENTIONS]->(e:Entity)
                        DELETE r
                        RETURN DISTINCT e.uid AS uid""", params).list(r -> r.get("uid").asString());
                params.put("previous", previouslyMentioned);
                tx.run("""
                        UNWIND $entities AS e
                        MERGE (n:Entity {uid: e.uid})
                        SET n.collection = $collection, n.name = e.name, n.type = e.type, n.words = e.words""", params).consume();
                // the chunk sink may not have written the chunk yet: create it bare, it fills it in later
                tx.run("""
                        UNWIND $mentions AS m
                        MERGE (ch:Chunk {chunkId: m.chunkId})
                        ON CREATE SET ch.collection = $collection, ch.documentId = $documentId, ch.chunkIndex = m.index
                        WITH ch, m
                        MATCH (n:Entity {uid: m.uid})
                        MERGE (ch)-[:MENTIONS]->(n)""", params).consume();
                tx.run("""
                        UNWIND $relations AS r
                        MATCH (a:Entity {uid: r.from}), (b:Entity {uid: r.to})
                        MERGE (a)-[rel:RELATED_TO {type: r.type}]->(b)""", params).consume();
                Neo4jApiGraph.replace(tx, collection, graph.documentId(), documentUid(collection, graph.documentId()), graph.api());
                // entities only the old version of this document mentioned (not a scan of the collection)
                tx.run("""
                        UNWIND $previous AS uid
                        MATCH (e:Entity {uid: uid})
                        WHERE NOT ()-[:MENTIONS]->(e)
                        DETACH DELETE e""", params).consume();
                return null;
            });
        }
    }

    /**
     * Vectors for the graph's entities and the document's operations that have none: a node's
     * {@code words}, embedded once per collection (an entity another document already brought keeps
     * its vector; an operation is rewritten with its document, so it is embedded again). Read, embed
     * and write are separate steps so that no transaction waits on the model.
     */
    @Override
    public int embedGraphNodes(GraphExtracted graph, Embedder embedder) {
        Map<String, Object> params = Map.of("collection", graph.collection(),
                "documentUid", documentUid(graph.collection(), graph.documentId()),
                "uids", graph.entities().stream().map(e -> graph.collection() + ":" + e.id()).toList());
        List<Record> missing;
        try (Session session = driver.session()) {
            missing = session.executeRead(tx -> tx.run("""
                    UNWIND $uids AS uid
                    MATCH (n:Entity {uid: uid})
                    WHERE n.embedding IS NULL AND n.words IS NOT NULL
                    RETURN n.uid AS uid, 'Entity' AS label, n.words AS words
                    UNION
                    MATCH (n:Operation {documentUid: $documentUid})
                    WHERE n.embedding IS NULL AND n.words IS NOT NULL
                    RETURN n.uid AS uid, 'Operation' AS label, n.words AS words""", params).list());
        }
        if (missing.isEmpty()) {
            return 0;
        }
        List<float[]> vectors = embedder.embed(missing.stream().map(row -> row.get("words").asString()).toList());
        Map<String, List<Map<String, Object>>> rowsByLabel = new HashMap<>();
        for (int i = 0; i < missing.size(); i++) {
            rowsByLabel.computeIfAbsent(missing.get(i).get("label").asString(), label -> new ArrayList<>())
                    .add(Map.of("uid", missing.get(i).get("uid").asString(), "vector", toList(vectors.get(i))));
        }
        try (Session session = driver.session()) {
            session.executeWrite(tx -> {
                // labels spelled out per statement so that each lookup uses its uid constraint
                rowsByLabel.forEach((label, rows) -> tx.run("UNWIND $rows AS row MATCH (n:" + label + " {uid: row.uid})"
                        + " CALL db.create.setNodeVectorProperty(n, 'embedding', row.vector)", Map.of("rows", rows)).consume());
                return null;
            });
        }
        return missing.size();
    }

    @Override
    public void probeWrite() {
        try (Session session = driver.session()) {
            session.executeWrite(tx -> tx.run("CREATE (p:OpenRagWriteProbe) DELETE p").consume());
        }
    }

    @Override
    public void deleteDocument(String collection, String documentId) {
        Map<String, Object> params = Map.of("uid", documentUid(collection, documentId),
                "collection", collection, "documentId", documentId);
        try (Session session = driver.session()) {
            session.executeWrite(tx -> {
                tx.run("""
                        OPTIONAL MATCH (d:Document {uid: $uid})
                        OPTIONAL MATCH (s:Section {collection: $collection, documentId: $documentId})
                        DETACH DELETE d, s""", params).consume();
                // the text and the version record are not removed here: DocumentTexts.delete and
                // DocumentMetadataStore.deleteVersion keep the delete's time, so a late write of an older version stays out
                Neo4jApiGraph.replace(tx, collection, documentId, documentUid(collection, documentId), null);
                tx.run("MATCH (ch:Chunk {collection: $collection, documentId: $documentId}) DETACH DELETE ch", params).consume();
                removeOrphanEntities(tx, collection);
                return null;
            });
        }
    }

    @Override
    public void deleteGraph(String collection, String documentId) {
        Map<String, Object> params = Map.of("collection", collection, "documentId", documentId);
        try (Session session = driver.session()) {
            session.executeWrite(tx -> {
                tx.run("""
                        MATCH (ch:Chunk {collection: $collection, documentId: $documentId})
                        OPTIONAL MATCH (ch)-[m:MENTIONS]->()
                        DELETE m
                        WITH DISTINCT ch
                        WHERE NOT ()-[:HAS_CHUNK]->(ch)
                        DETACH DELETE ch""", params).consume();
                Neo4jApiGraph.replace(tx, collection, documentId, documentUid(collection, documentId), null);
                removeOrphanEntities(tx, collection);
                return null;
            });
        }
    }

    @Override
    public long countDocuments(String collection) {
        return count("MATCH (d:Document {collection: $collection}) RETURN count(d) AS n", collection);
    }

    @Override
    public long countChunks(String collection) {
        return count("MATCH (c:Chunk {collection: $collection}) WHERE c.text IS NOT NULL RETURN count(c) AS n", collection);
    }

    /** Chunks of a collection that carry a vector (what the vector index can find). */
    public long countEmbeddedChunks(String collection) {
        return count("MATCH (c:Chunk {collection: $collection}) WHERE c.embedding IS NOT NULL RETURN count(c) AS n", collection);
    }

    private long count(String query, String collection) {
        try (Session session = driver.session()) {
            return session.executeRead(tx -> tx.run(query, Map.of("collection", collection)).single().get("n").asLong());
        }
    }

    private static void removeOrphanEntities(TransactionContext tx, String collection) {
        tx.run("""
                MATCH (e:Entity {collection: $collection})
                WHERE NOT ()-[:MENTIONS]->(e)
                DETACH DELETE e""", Map.of("collection", collection)).consume();
    }

    private static int chunkIndexOf(String chunkId) {
        return Integer.parseInt(chunkId.substring(chunkId.lastIndexOf('#') + 1));
    }

    public static List<Float> toList(float[] vector) {
        List<Float> list = new ArrayList<>(vector.length);
        for (float value : vector) {
            list.add(value);
        }
        return list;
    }
}
