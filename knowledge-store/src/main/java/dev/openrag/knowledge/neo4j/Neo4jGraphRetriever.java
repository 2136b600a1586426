package dev.openrag.knowledge.neo4j;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;

import dev.openrag.knowledge.browse.ApiOperation;
import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.knowledge.port.GraphRetriever;
import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.knowledge.text.FulltextQuery;
import dev.openrag.knowledge.text.QueryTerms;

/**
 * {@link GraphRetriever} on Neo4j, in one query. Seeds by name: entities whose squashed name equals
 * a squashed run of query words, operations whose id does. Seeds by similarity (LightRAG's local
 * mode maps a question to entities the same way, through what is similar to it): the
 * {@value #SIMILAR_SEEDS} chunks nearest to the query vector, the r-th weighing 1 / r, and the
 * entities they mention, each passing half its seed's weight on. An entity passes its weight to
 * every chunk that mentions it, divided by log2(2 + its mentions) (a name every chunk mentions says
 * little). A chunk scores the sum of what reaches it; chunks within {@code maxHops} NEXT steps of a
 * scored chunk get half the score per step, keeping the better of the two. The signals behind a
 * chunk's score come back with it ({@link #SIGNAL_PREFIX}).
 *
 * <p>With a positive {@code nodeSeeds} weight, entities and operations are seeds by their own
 * similarity too (their {@code words}, embedded at ingest): the {@value #SIMILAR_SEEDS} nearest to the
 * query vector and the {@value #SIMILAR_SEEDS} best by BM25 over their words, the r-th of each list
 * weighing {@code nodeSeeds / r}; an entity passes that on as above, an operation to its chunk.
 *
 * <p>With a filter, the same query keeps to the documents it selects: the similarity seeds are the
 * nearest chunks of those documents (exact cosine, not the index's top of the whole collection), the
 * node seeds the nearest entities and operations of those documents' chunks (exact cosine) and the
 * best by words among the nodes that lead to such a chunk, a chunk reached from an entity or
 * operation counts only when its document matches, and NEXT steps stay within a document; so the
 * limit counts matching chunks only.
 */
public final class Neo4jGraphRetriever implements GraphRetriever {

    static final int SIMILAR_SEEDS = 10;
    /**
     * What each signal gave a chunk, named {@code graph.name} (entities and operations the query
     * names), {@code graph.similarChunk} (a seed chunk itself), {@code graph.sharedEntity} (an entity
     * of a seed chunk), {@code graph.similarNode} (an entity or operation similar to the query) or
     * {@code graph.next} (reached over NEXT from a scored chunk: its score, decayed, is all it has).
     */
    public static final String SIGNAL_PREFIX = "graph.";

    /** Where a chunk may be a hit: {@code HIT} is replaced by the filter's predicate on the chunk's document, or true. */
    private static final String HIT = "$$hitAllowed$$";

    private static final String BY_NAME = """
              MATCH (e:Entity {collection: $collection})
              WITH e, toLower(replace(replace(replace(replace(replace(e.name, '_', ''), '-', ''), '.', ''), ' ', ''), '/', '')) AS key
              WHERE key IN $grams
              WITH e, COUNT { (e)<-[:MENTIONS]-() } AS mentions
              MATCH (e)<-[:MENTIONS]-(hit:Chunk)
              WHERE $$hitAllowed$$
              RETURN hit, 1.0 / (log(2.0 + mentions) / log(2.0)) AS weight, 'name' AS signal
              UNION ALL
              MATCH (o:Operation {collection: $collection})-[:HAS_CHUNK]->(hit:Chunk)
              WHERE toLower(o.operationId) IN $grams AND $$hitAllowed$$
              RETURN hit, 1.0 AS weight, 'name' AS signal""";

    /** The seed chunks by similarity: the collection's nearest, through the vector index. */
    private static final String NEAREST_SEEDS = """
              MATCH (seed:Chunk)
                SEARCH seed IN (VECTOR INDEX %s FOR $vector WHERE seed.collection = $collection LIMIT $seeds) SCORE AS similarity"""
            .formatted(Neo4jSchema.CHUNK_VECTOR_INDEX);

    /**
     * With a filter: the nearest among the selected documents' chunks, exactly, as the vector
     * retriever's filtered search (the index's nearest in the whole collection may all lie in other
     * documents). {@code $$selected$$} is the filter's predicate on {@code d}.
     */
    private static final String NEAREST_SELECTED_SEEDS = """
              MATCH (d:Document {collection: $collection}) WHERE $$selected$$
              MATCH (seed:Chunk {collection: $collection, documentId: d.documentId})
              WHERE seed.embedding IS NOT NULL
              WITH seed, vector.similarity.cosine(seed.embedding, $vector) AS similarity""";

    private static final String BY_SIMILARITY = """
              UNION ALL
              $$seeds$$
              WITH seed, similarity ORDER BY similarity DESC LIMIT $seeds
              WITH collect(seed) AS seeds
              UNWIND range(0, size(seeds) - 1) AS r
              WITH seeds[r] AS seed, 1.0 / (r + 1) AS strength
              CALL (seed, strength) {
                RETURN seed AS hit, strength AS weight, 'similarChunk' AS signal
                UNION ALL
                MATCH (seed)-[:MENTIONS]->(e:Entity)
                WITH e, strength, COUNT { (e)<-[:MENTIONS]-() } AS mentions
                MATCH (e)<-[:MENTIONS]-(hit:Chunk)
                WHERE $$hitAllowed$$
                RETURN hit, 0.5 * strength / (log(2.0 + mentions) / log(2.0)) AS weight, 'sharedEntity' AS signal
              }
              RETURN hit, weight, signal""";

    /** Nodes by vector and by words, one weight per rank and list, summed per node. */
    private static final String NODE_SEEDS = """
              UNION ALL
              CALL () {
                CALL () {
                  $$nearestNodes$$
                }
                WITH n, similarity ORDER BY similarity DESC LIMIT $seeds
                WITH collect(n) AS nodes
                UNWIND range(0, size(nodes) - 1) AS r
                RETURN nodes[r] AS n, $nodeWeight / (r + 1) AS strength
                UNION ALL
                CALL db.index.fulltext.queryNodes('%s', $lucene, $$wordsLimit$$) YIELD node, score
                WITH node AS n, score WHERE n.collection = $collection $$nodeAllowed$$
                WITH n, score ORDER BY score DESC LIMIT $seeds
                WITH collect(n) AS nodes
                UNWIND range(0, size(nodes) - 1) AS r
                RETURN nodes[r] AS n, $nodeWeight / (r + 1) AS strength
              }
              WITH n, sum(strength) AS strength
              CALL (n, strength) {
                MATCH (n:Entity)<-[:MENTIONS]-(hit:Chunk)
                WHERE $$hitAllowed$$
                WITH n, strength, hit, COUNT { (n)<-[:MENTIONS]-() } AS mentions
                RETURN hit, strength / (log(2.0 + mentions) / log(2.0)) AS weight
                UNION ALL
                MATCH (n:Operation)-[:HAS_CHUNK]->(hit:Chunk)
                WHERE $$hitAllowed$$
                RETURN hit, strength AS weight
              }
              RETURN hit, weight, 'similarNode' AS signal""".formatted(Neo4jSchema.GRAPH_WORDS_INDEX);

    /** The entities and operations nearest to the query, through their vector indexes. */
    private static final String NEAREST_NODES = """
                  MATCH (n:Entity)
                    SEARCH n IN (VECTOR INDEX %s FOR $vector WHERE n.collection = $collection LIMIT $seeds) SCORE AS similarity
                  RETURN n, similarity
                  UNION ALL
                  MATCH (n:Operation)
                    SEARCH n IN (VECTOR INDEX %s FOR $vector WHERE n.collection = $collection LIMIT $seeds) SCORE AS similarity
                  RETURN n, similarity""".formatted(Neo4jSchema.ENTITY_VECTOR_INDEX, Neo4jSchema.OPERATION_VECTOR_INDEX);

    /**
     * With a filter: the nearest among the entities the selected documents' chunks mention and the operations
     * they present, exactly (the indexes' nearest in the whole collection may all belong to other documents).
     */
    private static final String NEAREST_SELECTED_NODES = """
                  MATCH (d:Document {collection: $collection}) WHERE $$selected$$
                  MATCH (:Chunk {collection: $collection, documentId: d.documentId})-[:MENTIONS]->(n:Entity)
                  WITH DISTINCT n WHERE n.embedding IS NOT NULL
                  RETURN n, vector.similarity.cosine(n.embedding, $vector) AS similarity
                  UNION ALL
                  MATCH (d:Document {collection: $collection}) WHERE $$selected$$
                  MATCH (n:Operation)-[:HAS_CHUNK]->(:Chunk {collection: $collection, documentId: d.documentId})
                  WITH DISTINCT n WHERE n.embedding IS NOT NULL
                  RETURN n, vector.similarity.cosine(n.embedding, $vector) AS similarity""";

    private final Driver driver;

    public Neo4jGraphRetriever(Driver driver) {
        this.driver = driver;
    }

    @Override
    public List<ScoredChunk> search(String collection, String query, float[] queryVector, int maxHops, double nodeSeeds,
                                    int limit, DocumentFilter filter) {
        List<String> grams = QueryTerms.squashedGrams(query);
        if (grams.isEmpty() && queryVector == null) {
            return List.of();
        }
        int hops = Math.max(0, Math.min(3, maxHops));
        String lucene = FulltextQuery.luceneQuery(query);
        boolean seedByNodes = nodeSeeds > 0 && queryVector != null && !lucene.isEmpty();
        Map<String, Object> parameters = new HashMap<>(Map.of("collection", collection, "grams", grams, "hops", hops,
                "limit", limit, "seeds", SIMILAR_SEEDS));
        // the filter, as a predicate on a document d, is applied where chunks enter: every seed and every
        // chunk an entity passes weight to is of a selected document, and NEXT stays within a document
        String selected = filter == null ? null : Neo4jDocumentMetadata.cypher(filter, parameters);
        String hitAllowed = selected == null ? "true"
                // the document by its unique uid (Neo4jGraphStore#documentUid): one index seek per chunk
                : "EXISTS { MATCH (d:Document {uid: $collection + '/' + hit.documentId}) WHERE " + selected + " }";
        String seeds = selected == null ? NEAREST_SEEDS : NEAREST_SELECTED_SEEDS.replace("$$selected$$", selected);
        // node seeds by words: every match of the collection is read when filtered, since the best of them may all lie
        // in other documents; a node is a seed only when it leads to a chunk of a selected document
        String nodeSeedsCypher = NODE_SEEDS
                .replace("$$nearestNodes$$", selected == null ? NEAREST_NODES : NEAREST_SELECTED_NODES.replace("$$selected$$", selected))
                .replace("$$wordsLimit$$", selected == null ? "{limit: 4 * $seeds}" : "{}")
                .replace("$$nodeAllowed$$", selected == null ? "" : "AND EXISTS { MATCH (n)-[:MENTIONS|HAS_CHUNK]-(hit:Chunk) WHERE " + HIT + " }");
        String cypher = """
                CYPHER 25
                CALL () {
                %s
                %s
                %s
                }
                WITH hit, signal, sum(weight) AS part
                WITH hit, sum(part) AS score, collect([signal, part]) AS parts
                CALL (hit, score, parts) {
                  RETURN hit AS ch, score AS s, parts AS why
                  UNION
                  MATCH p = (hit)-[:NEXT*1..3]-(near:Chunk)
                  WHERE length(p) <= $hops %s
                  RETURN near AS ch, score * (0.5 ^ length(p)) AS s, [['next', score * (0.5 ^ length(p))]] AS why
                }
                WITH ch, s, why ORDER BY s DESC
                WITH ch, max(s) AS score, collect(why)[0] AS why
                WHERE ch.text IS NOT NULL
                RETURN ch %s AS ch, score, why ORDER BY score DESC, ch.chunkId LIMIT $limit""".formatted(BY_NAME,
                queryVector == null ? "" : BY_SIMILARITY.replace("$$seeds$$", seeds), seedByNodes ? nodeSeedsCypher : "",
                selected == null ? "" : "AND near.documentId = hit.documentId", Neo4jVectorIndex.CHUNK_FIELDS)
                .replace(HIT, hitAllowed);
        if (queryVector != null) {
            parameters.put("vector", Neo4jGraphStore.toList(queryVector));
        }
        if (seedByNodes) {
            parameters.put("lucene", FulltextQuery.within("collection", collection, lucene));
            parameters.put("nodeWeight", nodeSeeds);
        }
        try (Session session = driver.session()) {
            List<Record> rows = session.executeRead(tx -> tx.run(cypher, parameters).list());
            List<ScoredChunk> results = new ArrayList<>();
            int rank = 1;
            for (Record row : rows) {
                Map<String, Double> signals = new LinkedHashMap<>();
                for (Value part : row.get("why").values()) {
                    signals.put(SIGNAL_PREFIX + part.get(0).asString(), part.get(1).asDouble());
                }
                results.add(new ScoredChunk(Neo4jVectorIndex.toChunk(row.get("ch")), rank++, row.get("score").asDouble(), signals));
            }
            return results;
        }
    }

    @Override
    public Map<String, ApiOperation> operations(List<String> chunkIds) {
        String cypher = """
                UNWIND $ids AS id
                MATCH (o:Operation)-[:HAS_CHUNK]->(ch:Chunk {chunkId: id})
                OPTIONAL MATCH (api:Api)-[:HAS_OPERATION]->(o)
                OPTIONAL MATCH (o)-[:HAS_EXAMPLE]->(x:Example)
                WITH id, o, api, collect(x {.name, .mediaType, .value}) AS examples
                OPTIONAL MATCH (o)-[:RELATES_TO|PART_OF]->(e:Entity)
                RETURN id, o, api.name AS api, examples, collect(e.name) AS entities""";
        try (Session session = driver.session()) {
            Map<String, ApiOperation> operations = new LinkedHashMap<>();
            for (Record row : session.executeRead(tx -> tx.run(cypher, Map.of("ids", chunkIds)).list())) {
                Value o = row.get("o");
                operations.put(row.get("id").asString(), new ApiOperation(row.get("api").asString(null),
                        o.get("method").asString(null), o.get("path").asString(null), o.get("operationId").asString(null),
                        o.get("summary").asString(null), o.get("parameters").asString(null),
                        row.get("examples").asList(x -> new ApiOperation.Example(x.get("name").asString(null),
                                x.get("mediaType").asString(null), x.get("value").asString(null))),
                        row.get("entities").asList(Value::asString)));
            }
            return operations;
        }
    }
}
