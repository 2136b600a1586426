package dev.openrag.knowledge.neo4j;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;
import org.neo4j.driver.types.Node;

import dev.openrag.knowledge.port.Correction;
import dev.openrag.knowledge.port.CorrectionStore;

/** {@link CorrectionStore} on Neo4j: {@code (:Correction)-[:CORRECTS]->(:Chunk)}, with the correction's embedding. */
public final class Neo4jCorrectionStore implements CorrectionStore {

    /**
     * Creates a correction from {@link #parameters} and links it to the chunk it names; binds {@code c}. Memory's
     * store runs it too, inside the write that links a corrected memory.
     */
    public static final String CREATE = """
            CREATE (c:Correction {id: $id, scope: $scope, text: $text, query: $query, chunkId: $chunkId,
                                  memoryId: $memoryId, createdAt: $createdAt, embedding: $embedding})
            WITH c
            OPTIONAL MATCH (ch:Chunk {chunkId: $chunkId})
            FOREACH (_ IN CASE WHEN ch IS NULL THEN [] ELSE [1] END | MERGE (c)-[:CORRECTS]->(ch))
            """;

    private final Driver driver;

    public Neo4jCorrectionStore(Driver driver) {
        this.driver = driver;
    }

    /** The parameters of {@link #CREATE}. */
    public static Map<String, Object> parameters(Correction correction, float[] embedding) {
        Map<String, Object> params = new HashMap<>();
        params.put("id", correction.id());
        params.put("scope", correction.scope());
        params.put("text", correction.text());
        params.put("query", correction.query());
        params.put("chunkId", correction.chunkId());
        params.put("memoryId", correction.memoryId());
        params.put("createdAt", correction.createdAt());
        params.put("embedding", Neo4jGraphStore.toList(embedding));
        return params;
    }

    @Override
    public Correction add(Correction correction, float[] embedding) {
        try (Session session = driver.session()) {
            session.executeWriteWithoutResult(tx -> tx.run(CREATE + "RETURN c.id", parameters(correction, embedding)).consume());
        }
        return correction;
    }

    @Override
    public List<Correction> corrections(String scope) {
        return read("MATCH (c:Correction {scope: $scope}) RETURN c ORDER BY c.createdAt DESC", Map.of("scope", scope))
                .stream().map(row -> correction(row.get("c").asNode(), null)).toList();
    }

    @Override
    public boolean chunkExists(String chunkId) {
        return !read("MATCH (c:Chunk {chunkId: $id}) RETURN c.chunkId LIMIT 1", Map.of("id", chunkId)).isEmpty();
    }

    @Override
    public List<Correction> related(Collection<String> scopes, float[] query, double minSimilarity, Collection<String> chunkIds,
                                    int limit) {
        Map<String, Object> params = new HashMap<>();
        params.put("scopes", scopes == null ? null : List.copyOf(scopes));
        params.put("vector", Neo4jGraphStore.toList(query));
        params.put("min", minSimilarity);
        params.put("chunkIds", List.copyOf(chunkIds));
        params.put("limit", limit);
        return read("""
                MATCH (c:Correction)
                WHERE $scopes IS NULL OR c.scope IN $scopes
                WITH c, vector.similarity.cosine(c.embedding, $vector) AS similarity
                WHERE similarity >= $min OR c.chunkId IN $chunkIds
                RETURN c, similarity ORDER BY similarity DESC LIMIT $limit""", params)
                .stream().map(row -> correction(row.get("c").asNode(), row.get("similarity").asDouble())).toList();
    }

    private List<Record> read(String cypher, Map<String, Object> params) {
        try (Session session = driver.session()) {
            return session.run(cypher, params).list();
        }
    }

    private static Correction correction(Node c, Double score) {
        return new Correction(c.get("id").asString(), c.get("scope").asString(), c.get("text").asString(),
                string(c.get("query")), string(c.get("chunkId")), string(c.get("memoryId")), c.get("createdAt").asLong(), score);
    }

    private static String string(Value value) {
        return value.isNull() ? null : value.asString();
    }
}
