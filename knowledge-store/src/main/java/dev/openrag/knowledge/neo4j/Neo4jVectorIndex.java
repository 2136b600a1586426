package dev.openrag.knowledge.neo4j;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;

import dev.openrag.knowledge.port.ChunkLookup;
import dev.openrag.knowledge.port.CollectionVectors;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.knowledge.port.VectorIndex;

/**
 * {@link VectorIndex} on Neo4j's vector index over {@code Chunk.embedding}: the single-machine
 * vector backend ({@code openrag.vectors.backend=neo4j}). Vectors are written with the chunks by
 * {@link Neo4jGraphStore}; {@link #upsert} only (re)sets them. As {@link CollectionVectors} it
 * lets small collections be searched from memory ({@code InMemoryVectorIndex}): a collection's
 * version comes from its Document nodes, which {@link Neo4jGraphStore} rewrites (a new
 * {@code updatedAt}) in the same transaction as the document's chunks and vectors.
 */
public final class Neo4jVectorIndex implements VectorIndex, CollectionVectors, ChunkLookup {

    /**
     * The chunk properties a search returns: never the whole node, whose 384-float embedding
     * would otherwise travel with every hit.
     */
    static final String CHUNK_FIELDS = "{.collection, .documentId, .chunkId, .chunkIndex, .title, .sourceUri, .headingPath, .text, .context}";

    /**
     * How many neighbours a search asks the index for, at least, before keeping the best k. HNSW
     * links a vector that repeats one already in the graph to that earlier copy alone, so when the
     * same documents sit in several collections a later collection's chunks are hard to reach,
     * and an index asked for only k returns whatever it met on the way: the fourth import of the
     * 737-chunk dev corpus got vector pass@10 0.60 instead of 0.90. Asked for 1000, a collection of
     * up to that many chunks is searched in full (recall 1.0 against an exact scan, no slower:
     * 5–6 ms) and a bigger one more widely (at 100k chunks about 12 ms more than asking for 30).
     * {@code openrag.vectors.neo4j.search-breadth} overrides it.
     */
    public static final int SEARCH_BREADTH = 1000;

    private final Driver driver;
    private final Neo4jGraphStore graph;
    private final int breadth;

    public Neo4jVectorIndex(Driver driver) {
        this(driver, SEARCH_BREADTH);
    }

    /** @param breadth how many neighbours a search asks the index for at least ({@link #SEARCH_BREADTH}) */
    public Neo4jVectorIndex(Driver driver, int breadth) {
        this.driver = driver;
        this.graph = new Neo4jGraphStore(driver);
        this.breadth = breadth;
    }

    @Override
    public void upsert(List<IndexedChunk> chunks) {
        List<Map<String, Object>> rows = chunks.stream().filter(c -> c.vector() != null)
                .map(c -> Map.<String, Object>of("chunkId", c.chunkId(), "collection", c.collection(),
                        "documentId", c.documentId(), "index", c.chunkIndex(), "vector", Neo4jGraphStore.toList(c.vector())))
                .toList();
        try (Session session = driver.session()) {
            session.executeWrite(tx -> tx.run("""
                    UNWIND $rows AS r
                    MERGE (ch:Chunk {chunkId: r.chunkId})
                    ON CREATE SET ch.collection = r.collection, ch.documentId = r.documentId, ch.chunkIndex = r.index
                    WITH ch, r
                    CALL db.create.setNodeVectorProperty(ch, 'embedding', r.vector)""", Map.of("rows", rows)).consume());
        }
    }

    /** Stale chunks are removed with the document's structure by {@link Neo4jGraphStore#upsertDocument}. */
    @Override
    public void replaceDocument(String collection, String documentId, List<IndexedChunk> chunks) {
        upsert(chunks);
    }

    /**
     * The collection is a filter property of the index ({@link Neo4jSchema}), so the search walks
     * only that collection's vectors: k exact-collection neighbours however many other collections
     * share the index, asked for {@code breadth} of them ({@link #SEARCH_BREADTH}).
     */
    @Override
    public List<ScoredChunk> search(String collection, float[] queryVector, int k) {
        // an auto-commit query: one round trip, where a managed read transaction takes three
        // (begin, run, commit) and about 1.5 ms more on the search's critical path
        try (Session session = driver.session()) {
            List<Record> records = session.run("""
                    CYPHER 25
                    MATCH (node:Chunk)
                      SEARCH node IN (VECTOR INDEX %s FOR $vector WHERE node.collection = $collection LIMIT $breadth) SCORE AS score
                    WHERE node.text IS NOT NULL
                    WITH node, score ORDER BY score DESC LIMIT $k
                    RETURN node %s AS node, score""".formatted(Neo4jSchema.CHUNK_VECTOR_INDEX, CHUNK_FIELDS),
                    Map.of("vector", Neo4jGraphStore.toList(queryVector), "collection", collection, "k", k,
                            "breadth", Math.max(k, breadth))).list();
            List<ScoredChunk> results = new ArrayList<>();
            int rank = 1;
            for (Record record : records) {
                results.add(new ScoredChunk(toChunk(record.get("node")), rank++, record.get("score").asDouble()));
            }
            return results;
        }
    }

    /** Exact cosine over the chunks of the given documents, found through the (collection, documentId) index. */
    @Override
    public List<ScoredChunk> searchWithin(String collection, float[] queryVector, int k, Set<String> documentIds) {
        if (documentIds.isEmpty()) {
            return List.of();
        }
        try (Session session = driver.session()) {
            List<Record> records = session.run("""
                    UNWIND $documents AS documentId
                    MATCH (node:Chunk {collection: $collection, documentId: documentId})
                    WHERE node.text IS NOT NULL AND node.embedding IS NOT NULL
                    WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
                    ORDER BY score DESC LIMIT $k
                    RETURN node %s AS node, score""".formatted(CHUNK_FIELDS),
                    Map.of("vector", Neo4jGraphStore.toList(queryVector), "collection", collection, "k", k,
                            "documents", List.copyOf(documentIds))).list();
            List<ScoredChunk> results = new ArrayList<>();
            int rank = 1;
            for (Record record : records) {
                results.add(new ScoredChunk(toChunk(record.get("node")), rank++, record.get("score").asDouble()));
            }
            return results;
        }
    }

    /**
     * Documents, chunks and the newest write of {@code $collection}: a document written or deleted
     * changes the count or the newest {@code updatedAt}. Read over the collection's Document nodes
     * (indexed by collection), about a millisecond for the dev corpus's 90; ends in a WITH, so that
     * {@link Neo4jSearchState} can return more beside it.
     */
    static final String COLLECTION_VERSION = """
            MATCH (d:Document {collection: $collection})
            WITH count(d) AS documents, coalesce(sum(d.chunkCount), 0) AS chunks, toString(max(d.updatedAt)) AS updated""";

    @Override
    public Version version(String collection) {
        try (Session session = driver.session()) {
            return version(session.run(COLLECTION_VERSION + "\nRETURN documents, chunks, updated",
                    Map.of("collection", collection)).single());
        }
    }

    /** The version of a row of {@link #COLLECTION_VERSION}'s columns. */
    static Version version(Record row) {
        long chunks = row.get("chunks").asLong();
        return new Version(row.get("documents").asLong() + "/" + chunks + "/" + row.get("updated").asString(""), chunks);
    }

    /**
     * The version and every document's stamp (its {@code updatedAt}) in one query over the
     * collection's Document nodes, then the chunks of the documents whose stamp the caller does
     * not know, through the (collection, documentId) index: while a collection is being ingested
     * a search reads the one or two documents written since its copy, not the whole collection.
     */
    @Override
    public Changes changesSince(String collection, Map<String, String> known) {
        try (Session session = driver.session()) {
            return session.executeRead(tx -> {
                Record row = tx.run("""
                        MATCH (d:Document {collection: $collection})
                        WITH count(d) AS documents, coalesce(sum(d.chunkCount), 0) AS chunks, toString(max(d.updatedAt)) AS updated,
                             collect([d.documentId, coalesce(toString(d.updatedAt), '')]) AS stamps
                        RETURN documents, chunks, updated, stamps""", Map.of("collection", collection)).single();
                Map<String, String> stamps = new HashMap<>();
                for (Value pair : row.get("stamps").values()) {
                    stamps.put(pair.get(0).asString(), pair.get(1).asString());
                }
                List<String> changed = stamps.entrySet().stream().filter(entry -> !entry.getValue().equals(known.get(entry.getKey())))
                        .map(Map.Entry::getKey).sorted().toList();
                List<IndexedChunk> chunks = changed.isEmpty() ? List.of() : tx.run("""
                        UNWIND $documents AS documentId
                        MATCH (node:Chunk {collection: $collection, documentId: documentId})
                        WHERE node.text IS NOT NULL AND node.embedding IS NOT NULL
                        RETURN node %s AS node, node.embedding AS embedding""".formatted(CHUNK_FIELDS),
                        Map.of("collection", collection, "documents", changed)).list(record -> {
                            Value embedding = record.get("embedding");
                            float[] vector = new float[embedding.size()];
                            for (int i = 0; i < vector.length; i++) {
                                vector[i] = embedding.get(i).asFloat();
                            }
                            return toChunk(record.get("node")).withVector(vector);
                        });
                return new Changes(version(row), stamps, chunks);
            });
        }
    }

    /** Through the (collection, documentId) index, one auto-commit round trip for all keys. */
    @Override
    public List<IndexedChunk> chunks(String collection, Collection<ChunkKey> keys) {
        if (keys.isEmpty()) {
            return List.of();
        }
        List<Map<String, Object>> rows = keys.stream()
                .map(key -> Map.<String, Object>of("documentId", key.documentId(), "chunkIndex", key.chunkIndex())).toList();
        try (Session session = driver.session()) {
            return session.run("""
                    UNWIND $keys AS key
                    MATCH (node:Chunk {collection: $collection, documentId: key.documentId})
                    WHERE node.chunkIndex = key.chunkIndex AND node.text IS NOT NULL
                    RETURN node %s AS node""".formatted(CHUNK_FIELDS), Map.of("collection", collection, "keys", rows))
                    .list(record -> toChunk(record.get("node")));
        }
    }

    @Override
    public void deleteDocument(String collection, String documentId) {
        graph.deleteDocument(collection, documentId);
    }

    @Override
    public long countChunks(String collection) {
        return graph.countEmbeddedChunks(collection);
    }

    static IndexedChunk toChunk(Value node) {
        return new IndexedChunk(node.get("collection").asString(), node.get("documentId").asString(),
                node.get("chunkId").asString(), node.get("chunkIndex").asInt(),
                node.get("title").asString(null), node.get("sourceUri").asString(null),
                node.get("headingPath").isNull() ? List.of() : node.get("headingPath").asList(Value::asString),
                node.get("text").asString(null), node.get("context").asString(null), null);
    }
}
