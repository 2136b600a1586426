package dev.openrag.memory.neo4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;

import dev.openrag.knowledge.neo4j.Neo4jSchema;
import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryHit;
import dev.openrag.memory.MemoryQuery;
import dev.openrag.memory.MemoryWords;

/** Memory's own schema on real Neo4j: idempotent, and it brings a store written by an older version up to date. */
@ExtendWith(MemoryNeo4j.class)
class MemorySchemaTest {

    private static Driver driver;

    @BeforeAll
    static void connect(Driver shared) {
        driver = shared;
    }

    @Test
    void memoriesWrittenTheOldWayGetTheirTermsOnceAndAreFoundByThemInTheirLanguage() {
        String scope = "old-" + System.nanoTime();
        try (Session session = driver.session()) {
            // as the previous version wrote them: text only, indexed by a memory_words over the text with Lucene's analyzer
            session.run("DROP INDEX " + MemorySchema.MEMORY_TEXT_INDEX + " IF EXISTS").consume();
            session.run("CREATE FULLTEXT INDEX " + MemorySchema.MEMORY_TEXT_INDEX + " FOR (n:" + MemorySchema.INDEXED_MEMORY
                    + ") ON EACH [n.text, n.scope] OPTIONS {indexConfig: {`" + MemorySchema.MEMORY_WORDS_EVENTUALLY_CONSISTENT + "`: true}}")
                    .consume();
            session.run("UNWIND $rows AS row CREATE (m:Memory:" + MemorySchema.INDEXED_MEMORY + " {id: row.id, scope: $scope, text: row.text, "
                    + "tags: [], pinned: false, createdAt: 1, updatedAt: 1, embedding: [1.0, 0.0, 0.0, 0.0]})", Map.of("scope", scope, "rows", List.of(
                    Map.of("id", scope + "-de", "text", "Wir haben zwei Häuser in der Stadt gekauft."),
                    Map.of("id", scope + "-zh", "text", "我们的办公室搬到了杭州。"),
                    Map.of("id", scope + "-en", "text", "The neighbours painted their fence blue.")))).consume();
        }

        MemorySchema.bootstrap(driver, 4, MemoryWords.of(true));

        try (Session session = driver.session()) {
            assertThat(memoryWords(session)).isEqualTo(List.of(MemorySchema.INDEXED_MEMORY, true, MemorySchema.WHITESPACE, "terms,scope"));
            Record german = session.run("MATCH (m:Memory {id: $id}) RETURN m.terms AS terms, m.termsBy AS by", Map.of("id", scope + "-de")).single();
            assertThat(german.get("terms").asString().split(" ")).contains("haus", "stadt").doesNotContain("der", "in");
            assertThat(german.get("by").asString()).isEqualTo(MemoryWords.of(true).version());
        }
        assertThat(MemorySchema.readTerms(driver, MemoryWords.of(true))).as("a second start reads none again").isZero();
        assertThat(MemorySchema.readTerms(driver, MemoryWords.of(false))).as("another reading reads them all again")
                .isGreaterThanOrEqualTo(3);
        MemorySchema.bootstrap(driver, 4, MemoryWords.of(true));

        Neo4jMemoryStore store = new Neo4jMemoryStore(driver, 50, 0); // Neo4j's index answers
        assertThat(found(store, scope, "Wo ist das Haus?")).containsExactly("Wir haben zwei Häuser in der Stadt gekauft.");
        assertThat(found(store, scope, "杭州")).containsExactly("我们的办公室搬到了杭州。");
        assertThat(found(store, scope, "Who painted the fences?")).containsExactly("The neighbours painted their fence blue.");
    }

    @Test
    void aMemoryVectorIndexOverEveryMemoryIsRebuiltOverIndexedMemoriesAndItsMemoriesQueued() {
        String id = "migrated-" + System.nanoTime();
        try (Session session = driver.session()) {
            // the index as an older version made it: every Memory, indexed at its write
            session.run("DROP INDEX " + MemorySchema.MEMORY_VECTOR_INDEX + " IF EXISTS").consume();
            session.run("CYPHER 25 CREATE VECTOR INDEX " + MemorySchema.MEMORY_VECTOR_INDEX + " FOR (n:Memory) ON n.embedding WITH [n.scope] "
                    + "OPTIONS {indexConfig: {`vector.dimensions`: 4, `vector.similarity_function`: 'cosine'}}").consume();
            session.run("CREATE (:Memory {id: $id, scope: 'migrated', text: 'old', embedding: [1.0, 0.0, 0.0, 0.0]})", Map.of("id", id)).consume();
        }
        MemorySchema.bootstrap(driver, 4, MemoryWords.of(true));

        try (Session session = driver.session()) {
            assertThat(session.run("SHOW INDEXES YIELD name, labelsOrTypes WHERE name = $name RETURN labelsOrTypes",
                    Map.of("name", MemorySchema.MEMORY_VECTOR_INDEX)).single().get("labelsOrTypes").asList(Value::asString))
                    .containsExactly(MemorySchema.INDEXED_MEMORY);
            assertThat(session.run("MATCH (m:Memory {id: $id}) RETURN labels(m) AS labels", Map.of("id", id)).single()
                    .get("labels").asList(Value::asString))
                    .as("queued for the new index, which the memory store fills").contains(MemorySchema.MEMORY_TO_INDEX);
            List<String> constraints = session.run("SHOW CONSTRAINTS YIELD name RETURN name").list(r -> r.get("name").asString());
            assertThat(constraints).contains("memory_id", "conversation_id", "message_id", "memory_scope_version", "memory_entity_key");
        }
    }

    private static List<String> found(Neo4jMemoryStore store, String scope, String question) {
        return store.search(new MemoryQuery(scope, question, new float[] {1, 0, 0, 0}, 5, null, 0, false, null, null, null,
                System.currentTimeMillis(), MemoryQuery.BM25, null, null, false)).stream().map(MemoryHit::memory).map(Memory::text).toList();
    }

    /** The memory words index's label, whether it is updated after the commit, its analyzer and its properties. */
    private static List<Object> memoryWords(Session session) {
        Record index = Neo4jSchema.existingIndex(session, MemorySchema.MEMORY_TEXT_INDEX);
        Map<?, ?> config = Neo4jSchema.indexConfig(index);
        return List.of(String.join(",", index.get("labelsOrTypes").asList(Value::asString)),
                Boolean.TRUE.equals(config.get(MemorySchema.MEMORY_WORDS_EVENTUALLY_CONSISTENT)),
                String.valueOf(config.get(MemorySchema.MEMORY_WORDS_ANALYZER)),
                String.join(",", index.get("properties").asList(Value::asString)));
    }
}
