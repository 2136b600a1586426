package dev.openrag.knowledge.neo4j;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;

import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.knowledge.port.SummaryIndex;

/**
 * {@link SummaryIndex} on Neo4j: the {@code section_embedding} vector index over
 * {@code Section.embedding}, and {@code Document.summaryEmbedding} compared in place. Neo4j's
 * cosine scores are (1 + cos) / 2; this class returns plain cosines.
 */
public final class Neo4jSummaryIndex implements SummaryIndex {

    private final Driver driver;
    private final int breadth;

    public Neo4jSummaryIndex(Driver driver) {
        this(driver, Neo4jVectorIndex.SEARCH_BREADTH);
    }

    public Neo4jSummaryIndex(Driver driver, int breadth) {
        this.driver = driver;
        this.breadth = breadth;
    }

    /**
     * The index is asked as widely as for chunks ({@link Neo4jVectorIndex#SEARCH_BREADTH}): sections repeat across
     * collections too. Within selected documents, their sections are compared exactly, found through the
     * (collection, documentId) index, as {@link Neo4jVectorIndex#searchWithin} compares their chunks.
     */
    @Override
    public List<ScoredChunk> searchBySummary(String collection, float[] queryVector, int sections, int limit, Set<String> documentIds) {
        if (documentIds != null && documentIds.isEmpty()) {
            return List.of();
        }
        String best = documentIds == null ? """
                MATCH (s:Section)
                  SEARCH s IN (VECTOR INDEX %s FOR $vector WHERE s.collection = $collection LIMIT $breadth) SCORE AS score
                """.formatted(Neo4jSchema.SECTION_VECTOR_INDEX) : """
                UNWIND $documents AS documentId
                MATCH (s:Section {collection: $collection, documentId: documentId})
                WHERE s.embedding IS NOT NULL
                WITH s, vector.similarity.cosine(s.embedding, $vector) AS score
                """;
        String cypher = "CYPHER 25\n" + best + """
                WITH s, score ORDER BY score DESC LIMIT $sections
                MATCH (s)-[:HAS_SECTION*0..6]->(:Section)-[:HAS_CHUNK]->(ch:Chunk)
                WHERE ch.text IS NOT NULL AND ch.embedding IS NOT NULL
                WITH ch, max(2 * score - 1) AS sectionScore
                WITH ch, sectionScore, 2 * vector.similarity.cosine(ch.embedding, $vector) - 1 AS chunkScore
                RETURN ch %s AS ch, sectionScore + chunkScore AS score
                ORDER BY score DESC, ch.chunkId LIMIT $limit""".formatted(Neo4jVectorIndex.CHUNK_FIELDS);
        Map<String, Object> params = new HashMap<>(Map.of("vector", Neo4jGraphStore.toList(queryVector),
                "collection", collection, "sections", sections, "limit", limit, "breadth", Math.max(sections, breadth)));
        if (documentIds != null) {
            params.put("documents", List.copyOf(documentIds));
        }
        try (Session session = driver.session()) {
            List<Record> rows = session.executeRead(tx -> tx.run(cypher, params).list());
            List<ScoredChunk> results = new ArrayList<>(rows.size());
            int rank = 1;
            for (Record row : rows) {
                results.add(new ScoredChunk(Neo4jVectorIndex.toChunk(row.get("ch")), rank++, row.get("score").asDouble()));
            }
            return results;
        }
    }

    @Override
    public Map<String, Double> summarySimilarity(List<String> chunkIds, float[] queryVector) {
        String cypher = """
                UNWIND $ids AS id
                MATCH (ch:Chunk {chunkId: id})
                OPTIONAL MATCH (s:Section)-[:HAS_SECTION*0..6]->(:Section)-[:HAS_CHUNK]->(ch)
                WHERE s.embedding IS NOT NULL
                WITH ch, max(vector.similarity.cosine(s.embedding, $vector)) AS section
                OPTIONAL MATCH (d:Document {uid: ch.collection + '/' + ch.documentId})
                WITH ch, section, CASE WHEN d.summaryEmbedding IS NULL THEN null
                                       ELSE vector.similarity.cosine(d.summaryEmbedding, $vector) END AS document
                WITH ch, CASE WHEN section IS NULL THEN document WHEN document IS NULL THEN section
                              WHEN section > document THEN section ELSE document END AS best
                WHERE best IS NOT NULL
                RETURN ch.chunkId AS chunkId, 2 * best - 1 AS similarity""";
        try (Session session = driver.session()) {
            Map<String, Double> similarity = new HashMap<>();
            session.executeRead(tx -> tx.run(cypher, Map.of("ids", chunkIds, "vector", Neo4jGraphStore.toList(queryVector))).list())
                    .forEach(row -> similarity.put(row.get("chunkId").asString(), row.get("similarity").asDouble()));
            return similarity;
        }
    }
}
