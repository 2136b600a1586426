package dev.openrag.knowledge.neo4j;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Transaction;
import org.neo4j.driver.Value;
import org.neo4j.driver.exceptions.ClientException;
import org.neo4j.driver.exceptions.TransientException;

/**
 * Bootstraps the graph schema of ARCHITECTURE §4: uniqueness constraints (deterministic ids make
 * sink upserts idempotent), the vector indexes on {@code Chunk.embedding},
 * {@code Section.embedding} (section summaries), {@code Entity.embedding} and
 * {@code Operation.embedding} (graph seeds). Idempotent. Agents' memory keeps its own part
 * ({@code dev.openrag.memory.neo4j.MemorySchema} in the memory module).
 */
public final class Neo4jSchema {

    public static final String CHUNK_VECTOR_INDEX = "chunk_embedding";
    public static final String SECTION_VECTOR_INDEX = "section_embedding";
    /** Entity and operation vectors and words ({@code NodeWords}): graph retrieval seeds by them. */
    public static final String ENTITY_VECTOR_INDEX = "entity_embedding";
    public static final String OPERATION_VECTOR_INDEX = "operation_embedding";
    public static final String GRAPH_WORDS_INDEX = "graph_words";

    private static final List<String> CONSTRAINTS = List.of(
            "CREATE CONSTRAINT document_uid IF NOT EXISTS FOR (n:Document) REQUIRE n.uid IS UNIQUE",
            "CREATE CONSTRAINT credential_name IF NOT EXISTS FOR (n:Credential) REQUIRE n.name IS UNIQUE",
            "CREATE CONSTRAINT document_version_uid IF NOT EXISTS FOR (n:DocumentVersion) REQUIRE n.uid IS UNIQUE",
            "CREATE CONSTRAINT document_text_uid IF NOT EXISTS FOR (n:DocumentText) REQUIRE n.uid IS UNIQUE",
            "CREATE CONSTRAINT chunk_place_key IF NOT EXISTS FOR (n:ChunkPlace) REQUIRE n.key IS UNIQUE",
            "CREATE CONSTRAINT section_uid IF NOT EXISTS FOR (n:Section) REQUIRE n.uid IS UNIQUE",
            "CREATE CONSTRAINT chunk_id IF NOT EXISTS FOR (n:Chunk) REQUIRE n.chunkId IS UNIQUE",
            "CREATE CONSTRAINT entity_uid IF NOT EXISTS FOR (n:Entity) REQUIRE n.uid IS UNIQUE",
            "CREATE CONSTRAINT correction_id IF NOT EXISTS FOR (n:Correction) REQUIRE n.id IS UNIQUE",
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
            "CREATE INDEX chunk_place_document IF NOT EXISTS FOR (n:ChunkPlace) ON (n.uid)",
            // a reindex pages through a collection's texts in document id order (Neo4jDocumentTexts.UNPLACED)
            "CREATE INDEX document_text_collection IF NOT EXISTS FOR (n:DocumentText) ON (n.collection, n.documentId)",
            // BM25 over entity and operation words, limited to a collection the way memory_words is to a scope
            "CREATE FULLTEXT INDEX graph_words IF NOT EXISTS FOR (n:Entity|Operation) ON EACH [n.words, n.collection]",
            "CREATE INDEX correction_scope IF NOT EXISTS FOR (n:Correction) ON (n.scope)",
            // an earlier version kept a fulltext index over chunk text and context that nothing
            // searched (BM25 is OpenSearch's), at the cost of indexing every chunk twice
            "DROP INDEX chunk_text IF EXISTS");

    /** Vector index name → the label whose {@code embedding} it indexes. */
    private static final Map<String, String> VECTOR_INDEXES = Map.of(
            CHUNK_VECTOR_INDEX, "Chunk", SECTION_VECTOR_INDEX, "Section",
            ENTITY_VECTOR_INDEX, "Entity", OPERATION_VECTOR_INDEX, "Operation");
    /**
     * Vector index name → the property a search filters by (chunks, sections, entities and operations
     * by collection), stored in the index so that a search walks only the matching vectors
     * however many others share the index (Cypher 25 {@code SEARCH … WHERE}).
     */
    private static final Map<String, String> FILTER_PROPERTIES = Map.of(
            CHUNK_VECTOR_INDEX, "collection", SECTION_VECTOR_INDEX, "collection",
            ENTITY_VECTOR_INDEX, "collection", OPERATION_VECTOR_INDEX, "collection");

    private Neo4jSchema() {
    }

    /**
     * @param dimension vector size of the configured embedding model; an existing index with another
     *                  dimension is an error (re-embedding with a new model needs a fresh index)
     */
    public static void bootstrap(Driver driver, int dimension) {
        retried(() -> bootstrapOnce(driver, dimension));
    }

    /**
     * Runs a schema change, again after a race: several apps bootstrap at once on {@code openrag up}, and concurrent
     * schema changes can deadlock in Neo4j's lock manager (a transient error) or find the index another app created
     * a moment earlier (IF NOT EXISTS races).
     */
    public static void retried(Runnable change) {
        for (int attempt = 1; ; attempt++) {
            try {
                change.run();
                return;
            } catch (TransientException | ClientException e) {
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
            applyMissing(session, CONSTRAINTS);
            for (Map.Entry<String, String> entry : VECTOR_INDEXES.entrySet()) {
                vectorIndex(session, entry.getKey(), entry.getValue(), FILTER_PROPERTIES.get(entry.getKey()), dimension);
            }
            session.run("CALL db.awaitIndexes(120)").consume();
        }
    }

    /**
     * Creates the cosine vector index {@code index} over {@code label}'s {@code embedding}, holding {@code filter} for
     * filtered searches. One of another dimension is an error; one without the filter property or over another label
     * (an older version's) is dropped and made again from the stored vectors. Returns whether it was dropped.
     */
    public static boolean vectorIndex(Session session, String index, String label, String filter, int dimension) {
        Record existing = existingIndex(session, index);
        boolean rebuilt = false;
        if (existing != null) {
            Integer existingDimension = dimensionOf(existing);
            if (existingDimension != null && existingDimension != dimension) {
                throw new IllegalStateException("Neo4j vector index '" + index + "' has dimension " + existingDimension
                        + " but the embedding model produces " + dimension
                        + "; drop the index (DROP INDEX " + index + ") and re-ingest, or configure the old model");
            }
            if (!existing.get("properties").asList(Value::asString).contains(filter)
                    || !existing.get("labelsOrTypes").asList(Value::asString).contains(label)) {
                session.run("DROP INDEX " + index + " IF EXISTS").consume();
                rebuilt = true;
            }
        }
        session.run("CYPHER 25 CREATE VECTOR INDEX " + index + " IF NOT EXISTS FOR (n:" + label + ") ON n.embedding "
                + "WITH [n." + filter + "] "
                + "OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}",
                Map.of("dimension", dimension)).consume();
        return rebuilt;
    }

    private static final Pattern NAMED = Pattern.compile(
            "^(CREATE (?:CONSTRAINT|INDEX|FULLTEXT INDEX|VECTOR INDEX) (\\w+) IF NOT EXISTS|DROP INDEX (\\w+) IF EXISTS)\\b.*",
            Pattern.DOTALL);

    /**
     * Runs those of {@code statements} that would change something, all in one transaction: a create whose index or
     * constraint is not there yet, a drop whose index is. Each auto-committed schema statement costs a commit even
     * when it changes nothing, and every app start (and every test app's restart) runs the whole list. Statements
     * other than named {@code CREATE … IF NOT EXISTS} / {@code DROP INDEX … IF EXISTS} always run.
     */
    public static void applyMissing(Session session, List<String> statements) {
        Set<String> existing = new HashSet<>(session.run("SHOW INDEXES YIELD name RETURN name").list(r -> r.get("name").asString()));
        existing.addAll(session.run("SHOW CONSTRAINTS YIELD name RETURN name").list(r -> r.get("name").asString()));
        List<String> changes = statements.stream().filter(statement -> {
            Matcher named = NAMED.matcher(statement);
            if (!named.matches()) {
                return true;
            }
            return named.group(2) != null ? !existing.contains(named.group(2)) : existing.contains(named.group(3));
        }).toList();
        if (changes.isEmpty()) {
            return;
        }
        try (Transaction tx = session.beginTransaction()) {
            for (String statement : changes) {
                tx.run(statement).consume();
            }
            tx.commit();
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

    /** The index named {@code index} (its labels, properties and options), or null. */
    public static Record existingIndex(Session session, String index) {
        List<Record> rows = session.run("SHOW INDEXES YIELD name, labelsOrTypes, properties, options WHERE name = $name RETURN labelsOrTypes, properties, options",
                Map.of("name", index)).list();
        return rows.isEmpty() ? null : rows.get(0);
    }

    private static Integer dimensionOf(Record index) {
        return indexConfig(index).get("vector.dimensions") instanceof Number number ? number.intValue() : null;
    }

    /** An index's {@code indexConfig} options. */
    public static Map<?, ?> indexConfig(Record index) {
        return index.get("options").asMap().get("indexConfig") instanceof Map<?, ?> config ? config : Map.of();
    }
}
