package dev.openrag.knowledge.neo4j;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;

import dev.openrag.knowledge.port.FeedbackStore;

/** {@link FeedbackStore} on Neo4j: Feedback nodes hang off the chunk they judge. */
public final class Neo4jFeedbackStore implements FeedbackStore {

    private final Driver driver;

    public Neo4jFeedbackStore(Driver driver) {
        this.driver = driver;
    }

    @Override
    public boolean add(String id, String collection, String chunkId, String query, boolean helpful, String comment, float[] queryEmbedding, long now) {
        Map<String, Object> params = new HashMap<>();
        params.put("id", id);
        params.put("chunkId", chunkId);
        params.put("collection", collection);
        params.put("query", query);
        params.put("helpful", helpful);
        params.put("comment", comment);
        params.put("embedding", Neo4jGraphStore.toList(queryEmbedding));
        params.put("now", now);
        try (Session session = driver.session()) {
            return session.executeWrite(tx -> tx.run("""
                    MATCH (ch:Chunk {chunkId: $chunkId}) WHERE ch.text IS NOT NULL AND ch.collection = $collection
                    CREATE (ch)-[:HAS_FEEDBACK]->(:Feedback {id: $id, query: $query, helpful: $helpful, comment: $comment,
                                                             embedding: $embedding, createdAt: $now})
                    RETURN count(*) AS n""", params).single().get("n").asLong()) > 0;
        }
    }

    @Override
    public Map<String, Double> netVerdicts(Collection<String> chunkIds, float[] query, double minSimilarity) {
        try (Session session = driver.session()) {
            List<Record> rows = session.executeRead(tx -> tx.run("""
                    MATCH (ch:Chunk)-[:HAS_FEEDBACK]->(f:Feedback) WHERE ch.chunkId IN $chunkIds
                    WITH ch, f, vector.similarity.cosine(f.embedding, $vector) AS similarity
                    WHERE similarity >= $min
                    RETURN ch.chunkId AS chunkId, sum(CASE WHEN f.helpful THEN similarity ELSE -similarity END) AS net""",
                    Map.of("chunkIds", List.copyOf(chunkIds), "vector", Neo4jGraphStore.toList(query), "min", minSimilarity)).list());
            Map<String, Double> net = new HashMap<>();
            rows.forEach(row -> net.put(row.get("chunkId").asString(), row.get("net").asDouble()));
            return net;
        }
    }
}
