package dev.openrag.memory.neo4j;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;

import dev.openrag.knowledge.neo4j.Neo4jSchema;
import dev.openrag.memory.MemoryWords;

/**
 * Memory's part of the Neo4j schema: its constraints and indexes, the vector index over indexed memories, the
 * {@code memory_words} full-text index over each memory's terms ({@link MemoryWords}), and the migrations of
 * memories written by older versions (their terms, {@link InferredSupersessions}). Idempotent; {@link Neo4jSchema}
 * holds the knowledge graph's part.
 */
public final class MemorySchema {

    public static final String MEMORY_VECTOR_INDEX = "memory_embedding";
    public static final String MEMORY_TEXT_INDEX = "memory_words";
    /** The label of the memories {@link #MEMORY_VECTOR_INDEX} holds (a memory gets it after its write: {@code MemoryVectorQueue}). */
    public static final String INDEXED_MEMORY = "IndexedMemory";
    /** The label of the memories waiting for {@link #INDEXED_MEMORY}. */
    public static final String MEMORY_TO_INDEX = "MemoryToIndex";

    /**
     * The option that has Neo4j apply a write to {@link #MEMORY_TEXT_INDEX} on a background thread after
     * the write commits, not inside the commit: the store's part of an {@code add_memory} is 2-4 ms
     * shorter at p50 (docs/benchmarks.md). A search that reads the index first moves the queued memories in
     * and waits for what was committed before it ({@link #AWAIT_MEMORY_WORDS}), so it still finds a memory
     * added just before.
     */
    public static final String MEMORY_WORDS_EVENTUALLY_CONSISTENT = "fulltext.eventually_consistent";
    /** The option naming the index's analyzer: the terms are read in Java ({@link MemoryWords}), Lucene only splits them. */
    static final String MEMORY_WORDS_ANALYZER = "fulltext.analyzer";
    static final String WHITESPACE = "whitespace";
    /** Put before a query of {@link #MEMORY_TEXT_INDEX}: waits until the writes committed before it are in the index. */
    public static final String AWAIT_MEMORY_WORDS = "CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()\n";
    /** What {@link #MEMORY_TEXT_INDEX} indexes of a memory, in order. */
    static final List<String> MEMORY_WORDS_PROPERTIES = List.of("terms", "scope");

    /** How many memories a start reads again per transaction when their terms were read another way. */
    static final int TERMS_BATCH = 1000;

    private static final List<String> STATEMENTS = List.of(
            "CREATE CONSTRAINT memory_id IF NOT EXISTS FOR (n:Memory) REQUIRE n.id IS UNIQUE",
            "CREATE CONSTRAINT conversation_id IF NOT EXISTS FOR (n:Conversation) REQUIRE n.id IS UNIQUE",
            "CREATE CONSTRAINT message_id IF NOT EXISTS FOR (n:Message) REQUIRE n.id IS UNIQUE",
            "CREATE INDEX memory_scope IF NOT EXISTS FOR (n:Memory) ON (n.scope)",
            "CREATE INDEX memory_pinned IF NOT EXISTS FOR (n:Memory) ON (n.pinned)",
            "CREATE INDEX memory_speaker IF NOT EXISTS FOR (n:Memory) ON (n.scope, n.speakerKey)",
            // which memories' terms a start reads again (an older reading, or none)
            "CREATE INDEX memory_terms_by IF NOT EXISTS FOR (n:Memory) ON (n.termsBy)",
            // a memory scope's version, changed by every write of its memories (MemoryScopeCopies)
            "CREATE CONSTRAINT memory_scope_version IF NOT EXISTS FOR (n:MemoryScope) REQUIRE n.scope IS UNIQUE",
            // the memories each write of a scope stamped, which another instance's copy reads to catch up (MemoryScopeCopies)
            "CREATE INDEX memory_scope_seq IF NOT EXISTS FOR (n:Memory) ON (n.scope, n.seq)",
            "CREATE CONSTRAINT memory_entity_key IF NOT EXISTS FOR (n:MemoryEntity) REQUIRE (n.scope, n.key) IS UNIQUE",
            // BM25 over what memories say, each in its own language (MemoryWords: the terms are read in Java, Lucene
            // splits them on spaces), fused with their vectors; the scope is indexed too, so that Lucene reads only the
            // asked scope's memories. It holds the memories the vector index holds, which enter both in batches
            // (MemoryVectorQueue), and is updated after their commit rather than in it: MEMORY_WORDS_EVENTUALLY_CONSISTENT.
            "CREATE FULLTEXT INDEX " + MEMORY_TEXT_INDEX + " IF NOT EXISTS FOR (n:" + INDEXED_MEMORY + ") ON EACH [n.terms, n.scope] "
                    + "OPTIONS {indexConfig: {`" + MEMORY_WORDS_EVENTUALLY_CONSISTENT + "`: true, `" + MEMORY_WORDS_ANALYZER + "`: '"
                    + WHITESPACE + "'}}",
            // the first memory text index (development builds only) did not hold the scope
            "DROP INDEX memory_text IF EXISTS");

    private MemorySchema() {
    }

    /** What a bootstrap's migrations changed: memories whose terms it read, memories it brought back. */
    public record Migrated(int termsRead, long supersessionsRestored) {
    }

    /**
     * Creates memory's constraints and indexes and brings older memories up to date: each memory's terms read as
     * {@code words} reads them (memories written before, or read with the other stemming setting), and the memories
     * an earlier release hid by inference brought back ({@link InferredSupersessions}).
     *
     * @param dimension vector size of the configured embedding model; an existing index with another
     *                  dimension is an error (re-embedding with a new model needs a fresh index)
     */
    public static Migrated bootstrap(Driver driver, int dimension, MemoryWords words) {
        Neo4jSchema.retried(() -> bootstrapOnce(driver, dimension));
        return new Migrated(readTerms(driver, words), InferredSupersessions.restore(driver));
    }

    private static void bootstrapOnce(Driver driver, int dimension) {
        try (Session session = driver.session()) {
            Record memoryWords = Neo4jSchema.existingIndex(session, MEMORY_TEXT_INDEX);
            if (memoryWords != null && (!Boolean.TRUE.equals(Neo4jSchema.indexConfig(memoryWords).get(MEMORY_WORDS_EVENTUALLY_CONSISTENT))
                    || !WHITESPACE.equals(Neo4jSchema.indexConfig(memoryWords).get(MEMORY_WORDS_ANALYZER))
                    || !memoryWords.get("labelsOrTypes").asList(Value::asString).equals(List.of(INDEXED_MEMORY))
                    || !memoryWords.get("properties").asList(Value::asString).equals(MEMORY_WORDS_PROPERTIES))) {
                // made by an older version (over the text with Lucene's English-minded analyzer, updated inside every
                // add's commit, or over other properties): made again, and Neo4j reindexes the memories
                session.run("DROP INDEX " + MEMORY_TEXT_INDEX + " IF EXISTS").consume();
            }
            Neo4jSchema.applyMissing(session, STATEMENTS);
            if (Neo4jSchema.vectorIndex(session, MEMORY_VECTOR_INDEX, INDEXED_MEMORY, "scope", dimension)) {
                // the memories an older index over the Memory label held: queued for the new one
                session.run("MATCH (m:Memory) WHERE NOT m:" + INDEXED_MEMORY + " CALL (m) { SET m:" + MEMORY_TO_INDEX
                        + " } IN TRANSACTIONS OF 1000 ROWS").consume();
            }
            session.run("CALL db.awaitIndexes(120)").consume();
        }
    }

    /**
     * Gives every memory whose terms were read another way (or never) its terms as {@code words} reads them, in
     * batches; returns how many. Idempotent: a memory read this way is left alone, so a second start reads none.
     */
    static int readTerms(Driver driver, MemoryWords words) {
        String version = words.version();
        int done = 0;
        try (Session session = driver.session()) {
            while (true) {
                List<Record> stale = session.run("MATCH (m:Memory) WHERE m.termsBy IS NULL OR m.termsBy <> $version "
                        + "RETURN m.id AS id, m.text AS text LIMIT $batch", Map.of("version", version, "batch", TERMS_BATCH)).list();
                if (stale.isEmpty()) {
                    return done;
                }
                List<Map<String, Object>> rows = new ArrayList<>(stale.size());
                for (Record memory : stale) {
                    Map<String, Object> row = new HashMap<>();
                    row.put("id", memory.get("id").asString());
                    row.put("terms", words.stored(memory.get("text").asString("")));
                    rows.add(row);
                }
                session.executeWriteWithoutResult(tx -> tx.run("UNWIND $rows AS row MATCH (m:Memory {id: row.id}) "
                        + "SET m.terms = row.terms, m.termsBy = $version", Map.of("rows", rows, "version", version)).consume());
                done += rows.size();
            }
        }
    }
}
