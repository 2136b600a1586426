package dev.openrag.knowledge.neo4j;

import java.util.List;
import java.util.Map;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;
import org.neo4j.driver.exceptions.ClientException;
import org.neo4j.driver.exceptions.TransientException;

/**
 * Bootstraps the graph schema of ARCHITECTURE §4: uniqueness constraints (deterministic ids make
 * sink upserts idempotent), the vector indexes on {@code Chunk.embedding}, {@code IndexedMemory.embedding},
 * {@code Section.embedding} (section summaries), {@code Entity.embedding} and
 * {@code Operation.embedding} (graph seeds). Idempotent.
 */
public final class Neo4jSchema {

    public static final String CHUNK_VECTOR_INDEX = "chunk_embedding";
    public static final String MEMORY_VECTOR_INDEX = "memory_embedding";
    public static final String SECTION_VECTOR_INDEX = "section_embedding";
    public static final String MEMORY_TEXT_INDEX = "memory_words";
    /** Entity and operation vectors and words ({@code NodeWords}): graph retrieval seeds by them. */
    public static final String ENTITY_VECTOR_INDEX = "entity_embedding";
    public static final String OPERATION_VECTOR_INDEX = "operation_embedding";
    public static final String GRAPH_WORDS_INDEX = "graph_words";
    /** The label of the memories {@link #MEMORY_VECTOR_INDEX} holds (a memory gets it after its write: {@code MemoryVectorQueue}). */
    public static final String INDEXED_MEMORY = "IndexedMemory";
    /** The label of the memories waiting for {@link #INDEXED_MEMORY}. */
    public static final String MEMORY_TO_INDEX = "MemoryToIndex";

    /**
     * The option that has Neo4j apply a write to {@link #MEMORY_TEXT_INDEX} on a background thread after
     * the write commits, not inside the commit: the store's part of an {@code add_memory} is 2-4 ms
     * shorter at p50 (7.1-8.2 ms against 8.6-12.8 ms on one stack), of which the next add's embedding,
     * sharing the cores with Lucene's deferred work, gave back 0.5-1 ms (docs/benchmarks.md), until the
     * index took memories in batches. A search that reads the index first moves the queued memories in
     * and waits for what was committed before it ({@link #AWAIT_MEMORY_WORDS}), so it still finds a memory
     * added just before.
     */
    public static final String MEMORY_WORDS_EVENTUALLY_CONSISTENT = "fulltext.eventually_consistent";
    /** Put before a query of {@link #MEMORY_TEXT_INDEX}: waits until the writes committed before it are in the index. */
    /** What {@link #MEMORY_TEXT_INDEX} indexes of a memory, in order. */
    static final List<String> MEMORY_WORDS_PROPERTIES = List.of("text", "scope");
    public static final String AWAIT_MEMORY_WORDS = "CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()\n";

    private static final List<String> CONSTRAINTS = List.of(
            "CREATE CONSTRAINT document_uid IF NOT EXISTS FOR (n:Document) REQUIRE n.uid IS UNIQUE",
            "CREATE CONSTRAINT credential_name IF NOT EXISTS FOR (n:Credential) REQUIRE n.name IS UNIQUE",
            "CREATE CONSTRAINT document_text_uid IF NOT EXISTS FOR (n:DocumentText) REQUIRE n.uid IS UNIQUE",
            "CREATE CONSTRAINT section_uid IF NOT EXISTS FOR (n:Section) REQUIRE n.uid IS UNIQUE",
            "CREATE CONSTRAINT chunk_id IF NOT EXISTS FOR (n:Chunk) REQUIRE n.chunkId IS UNIQUE",
            "CREATE CONSTRAINT entity_uid IF NOT EXISTS FOR (n:Entity) REQUIRE n.uid IS UNIQUE",
            "CREATE CONSTRAINT memory_id IF NOT EXISTS FOR (n:Memory) REQUIRE n.id IS UNIQUE",
            "CREATE CONSTRAINT correction_id IF NOT EXISTS FOR (n:Correction) REQUIRE n.id IS UNIQUE",
            "CREATE CONSTRAINT conversation_id IF NOT EXISTS FOR (n:Conversation) REQUIRE n.id IS UNIQUE",
            "CREATE CONSTRAINT message_id IF NOT EXISTS FOR (n:Message) REQUIRE n.id IS UNIQUE",
            "CREATE CONSTRAINT feedback_id IF NOT EXISTS FOR (n:Feedback) REQUIRE n.id IS UNIQUE",
            "CREATE CONSTRAINT api_uid IF NOT EXISTS FOR (n:Api) REQUIRE n.uid IS UNIQUE",
            "CREATE CONSTRAINT operation_uid IF NOT EXISTS FOR (n:Operation) REQUIRE n.uid IS UNIQUE",
            "CREATE CONSTRAINT example_uid IF NOT EXISTS FOR (n:Example) REQUIRE n.uid IS UNIQUE",
            "CREATE CONSTRAINT doc_chunk_uid IF NOT EXISTS FOR (n:DocChunk) REQUIRE n.uid IS UNIQUE",
            "CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (n:ApiKey) REQUIRE n.id IS UNIQUE",
            "CREATE CONSTRAINT api_key_hash IF NOT EXISTS FOR (n:ApiKey) REQUIRE n.hash IS UNIQUE",
            "CREATE CONSTRAINT collection_settings IF NOT EXISTS FOR (n:CollectionSettings) REQUIRE n.collection IS UNIQUE",
            "CREATE INDEX api_document IF NOT EXISTS FOR (n:Api) ON (n.documentUid)",
            "CREATE INDEX operation_document IF NOT EXISTS FOR (n:Operation) ON (n.documentUid)",
            "CREATE INDEX example_document IF NOT EXISTS FOR (n:Example) ON (n.documentUid)",
            "CREATE INDEX doc_chunk_document IF NOT EXISTS FOR (n:DocChunk) ON (n.documentUid)",
            "CREATE INDEX section_document IF NOT EXISTS FOR (n:Section) ON (n.collection, n.documentId)",
            "CREATE INDEX document_collection IF NOT EXISTS FOR (n:Document) ON (n.collection)",
            "CREATE INDEX chunk_document IF NOT EXISTS FOR (n:Chunk) ON (n.collection, n.documentId)",
            "CREATE INDEX memory_scope IF NOT EXISTS FOR (n:Memory) ON (n.scope)",
            "CREATE INDEX memory_pinned IF NOT EXISTS FOR (n:Memory) ON (n.pinned)",
            "CREATE INDEX memory_speaker IF NOT EXISTS FOR (n:Memory) ON (n.scope, n.speakerKey)",
            // a memory scope's version, changed by every write of its memories (MemoryScopeCopies)
            "CREATE CONSTRAINT memory_scope_version IF NOT EXISTS FOR (n:MemoryScope) REQUIRE n.scope IS UNIQUE",
            // the memories each write of a scope stamped, which another instance's copy reads to catch up (MemoryScopeCopies)
            "CREATE INDEX memory_scope_seq IF NOT EXISTS FOR (n:Memory) ON (n.scope, n.seq)",
            "CREATE CONSTRAINT memory_entity_key IF NOT EXISTS FOR (n:MemoryEntity) REQUIRE (n.scope, n.key) IS UNIQUE",
            // BM25 over what memories say (names, places, exact phrases), fused with their vectors; the
            // scope is indexed too, so that Lucene reads only the asked scope's memories. It holds the
            // memories the vector index holds, which enter both in batches (MemoryVectorQueue), and is
            // updated after their commit rather than in it: see MEMORY_WORDS_EVENTUALLY_CONSISTENT.
            "CREATE FULLTEXT INDEX memory_words IF NOT EXISTS FOR (n:" + INDEXED_MEMORY + ") ON EACH [n.text, n.scope] "
                    + "OPTIONS {indexConfig: {`" + MEMORY_WORDS_EVENTUALLY_CONSISTENT + "`: true}}",
            // BM25 over entity and operation words, limited to a collection the way memory_words is to a scope
            "CREATE FULLTEXT INDEX graph_words IF NOT EXISTS FOR (n:Entity|Operation) ON EACH [n.words, n.collection]",
            "CREATE INDEX correction_scope IF NOT EXISTS FOR (n:Correction) ON (n.scope)",
            // an earlier version kept a fulltext index over chunk text and context that nothing
            // searched (BM25 is OpenSearch's), at the cost of indexing every chunk twice
            "DROP INDEX chunk_text IF EXISTS",
            // the first memory text index (development builds only) did not hold the scope
            "DROP INDEX memory_text IF EXISTS");

    /** Vector index name → the label whose {@code embedding} it indexes. */
    private static final Map<String, String> VECTOR_INDEXES = Map.of(
            CHUNK_VECTOR_INDEX, "Chunk", MEMORY_VECTOR_INDEX, INDEXED_MEMORY, SECTION_VECTOR_INDEX, "Section",
            ENTITY_VECTOR_INDEX, "Entity", OPERATION_VECTOR_INDEX, "Operation");
    /**
     * Vector index name → the property a search filters by (chunks and sections by collection,
     * memories by scope), stored in the index so that a search walks only the matching vectors
     * however many others share the index (Cypher 25 {@code SEARCH … WHERE}).
     */
    private static final Map<String, String> FILTER_PROPERTIES = Map.of(
            CHUNK_VECTOR_INDEX, "collection", MEMORY_VECTOR_INDEX, "scope", SECTION_VECTOR_INDEX, "collection",
            ENTITY_VECTOR_INDEX, "collection", OPERATION_VECTOR_INDEX, "collection");

    private Neo4jSchema() {
    }

    /**
     * @param dimension vector size of the configured embedding model; an existing index with another
     *                  dimension is an error (re-embedding with a new model needs a fresh index)
     */
    public static void bootstrap(Driver driver, int dimension) {
        // several apps bootstrap at once on `openrag up`; concurrent schema changes can deadlock
        // in Neo4j's lock manager, which reports it as a transient error worth retrying
        for (int attempt = 1; ; attempt++) {
            try {
                bootstrapOnce(driver, dimension);
                return;
            } catch (TransientException | ClientException e) {
                // another app created the same index a moment earlier: IF NOT EXISTS races, retry
                boolean race = e instanceof TransientException || e.getMessage().contains("already exists");
                if (!race || attempt == 5) {
                    throw e;
                }
                sleep(200L * attempt);
            }
        }
    }

    private static void bootstrapOnce(Driver driver, int dimension) {
        try (Session session = driver.session()) {
            Record memoryWords = existingIndex(session, MEMORY_TEXT_INDEX);
            if (memoryWords != null && (!Boolean.TRUE.equals(indexConfig(memoryWords).get(MEMORY_WORDS_EVENTUALLY_CONSISTENT))
                    || !memoryWords.get("labelsOrTypes").asList(Value::asString).equals(List.of(INDEXED_MEMORY))
                    || !memoryWords.get("properties").asList(Value::asString).equals(MEMORY_WORDS_PROPERTIES))) {
                // made by an older version, updated inside every add's commit or with every add, or over other
                // properties: made again (Neo4j reindexes the memories)
                session.run("DROP INDEX " + MEMORY_TEXT_INDEX + " IF EXISTS").consume();
            }
            for (String statement : CONSTRAINTS) {
                session.run(statement).consume();
            }
            for (Map.Entry<String, String> entry : VECTOR_INDEXES.entrySet()) {
                String index = entry.getKey();
                String label = entry.getValue();
                String filter = FILTER_PROPERTIES.get(index);
                Record existing = existingIndex(session, index);
                if (existing != null) {
                    Integer existingDimension = dimensionOf(existing);
                    if (existingDimension != null && existingDimension != dimension) {
                        throw new IllegalStateException("Neo4j vector index '" + index + "' has dimension " + existingDimension
                                + " but the embedding model produces " + dimension
                                + "; drop the index (DROP INDEX " + index + ") and re-ingest, or configure the old model");
                    }
                    if (!existing.get("properties").asList(Value::asString).contains(filter)
                            || !existing.get("labelsOrTypes").asList(Value::asString).contains(label)) {
                        // made by an older version without the filter property, or over all memories: rebuilt from the stored vectors
                        session.run("DROP INDEX " + index + " IF EXISTS").consume();
                        if (MEMORY_VECTOR_INDEX.equals(index)) {
                            // the memories an index over the Memory label held: queued for the new one
                            session.run("MATCH (m:Memory) WHERE NOT m:" + INDEXED_MEMORY + " CALL (m) { SET m:" + MEMORY_TO_INDEX
                                    + " } IN TRANSACTIONS OF 1000 ROWS").consume();
                        }
                    }
                }
                session.run("CYPHER 25 CREATE VECTOR INDEX " + index + " IF NOT EXISTS FOR (n:" + label + ") ON n.embedding "
                        + "WITH [n." + filter + "] "
                        + "OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}",
                        Map.of("dimension", dimension)).consume();
            }
            session.run("CALL db.awaitIndexes(120)").consume();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while bootstrapping the Neo4j schema", e);
        }
    }

    private static Record existingIndex(Session session, String index) {
        List<Record> rows = session.run("SHOW INDEXES YIELD name, labelsOrTypes, properties, options WHERE name = $name RETURN labelsOrTypes, properties, options",
                Map.of("name", index)).list();
        return rows.isEmpty() ? null : rows.get(0);
    }

    private static Integer dimensionOf(Record index) {
        return indexConfig(index).get("vector.dimensions") instanceof Number number ? number.intValue() : null;
    }

    private static Map<?, ?> indexConfig(Record index) {
        return index.get("options").asMap().get("indexConfig") instanceof Map<?, ?> config ? config : Map.of();
    }
}
