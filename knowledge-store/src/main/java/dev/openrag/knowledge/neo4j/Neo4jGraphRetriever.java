package dev.openrag.knowledge.neo4j;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;

import dev.openrag.knowledge.port.GraphRetriever;
import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.knowledge.text.QueryTerms;

/**
 * {@link GraphRetriever} on Neo4j. Entities match when their squashed name equals a squashed run
 * of query words; a chunk scores the sum of 1 / log2(2 + mentions of the entity) over the entities
 * it mentions (a name every chunk mentions says little), and chunks within {@code maxHops} NEXT
 * steps of a hit get half the score per step.
 */
public final class Neo4jGraphRetriever implements GraphRetriever {

    private final Driver driver;

    public Neo4jGraphRetriever(Driver driver) {
        this.driver = driver;
    }

    @Override
    public List<ScoredChunk> search(String collection, String query, int maxHops, int limit) {
        List<String> grams = QueryTerms.squashedGrams(query);
        if (grams.isEmpty()) {
            return List.of();
        }
        int hops = Math.max(0, Math.min(3, maxHops));
        String cypher = """
                MATCH (e:Entity {collection: $collection})
                WITH e, toLower(replace(replace(replace(replace(replace(e.name, '_', ''), '-', ''), '.', ''), ' ', ''), '/', '')) AS key
                WHERE key IN $grams
                WITH e, COUNT { (e)<-[:MENTIONS]-() } AS mentions
                MATCH (e)<-[:MENTIONS]-(hit:Chunk)
                WITH hit, sum(1.0 / (log(2.0 + mentions) / log(2.0))) AS score
                CALL (hit, score) {
                  RETURN hit AS ch, score AS s
                  UNION
                  MATCH p = (hit)-[:NEXT*1..3]-(near:Chunk)
                  WHERE length(p) <= $hops
                  RETURN near AS ch, score * (0.5 ^ length(p)) AS s
                }
                WITH ch, max(s) AS score
                WHERE ch.text IS NOT NULL
                RETURN ch, score ORDER BY score DESC, ch.chunkId LIMIT $limit""";
        try (Session session = driver.session()) {
            List<Record> rows = session.executeRead(tx -> tx.run(cypher,
                    Map.of("collection", collection, "grams", grams, "hops", hops, "limit", limit)).list());
            List<ScoredChunk> results = new ArrayList<>();
            int rank = 1;
            for (Record row : rows) {
                results.add(new ScoredChunk(Neo4jVectorIndex.toChunk(row.get("ch")), rank++, row.get("score").asDouble()));
            }
            return results;
        }
    }
}
