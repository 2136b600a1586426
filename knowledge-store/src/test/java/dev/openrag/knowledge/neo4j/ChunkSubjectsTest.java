package dev.openrag.knowledge.neo4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

import dev.openrag.localstack.Engine;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.LocalStackExtension.WithEngines;

/**
 * What chunks are about, against real Neo4j: their own documents and the entities they mention, by uid; never a
 * document of the same id in another collection, nor an entity only a chunk outside the list mentions.
 */
@WithEngines({Engine.NEO4J})
class ChunkSubjectsTest {

    private static Driver driver;

    @BeforeAll
    static void connect(StackConfig config) {
        driver = GraphDatabase.driver(config.neo4jUri(), AuthTokens.none());
        Neo4jSchema.bootstrap(driver, 4);
        try (var session = driver.session()) {
            session.run("""
                    CREATE (:Document {uid: 'subj-a/d1', collection: 'subj-a', documentId: 'd1'})
                    CREATE (:Document {uid: 'subj-b/d1', collection: 'subj-b', documentId: 'd1'})
                    CREATE (:Document {uid: 'subj-a/d2', collection: 'subj-a', documentId: 'd2'})
                    CREATE (c1:Chunk {chunkId: 'subj-a/d1#0', collection: 'subj-a', documentId: 'd1'})
                    CREATE (c2:Chunk {chunkId: 'subj-a/d2#0', collection: 'subj-a', documentId: 'd2'})
                    CREATE (kafka:Entity {uid: 'subj-a/entity/kafka', name: 'Kafka'})
                    CREATE (neo:Entity {uid: 'subj-a/entity/neo4j', name: 'Neo4j'})
                    CREATE (c1)-[:MENTIONS]->(kafka)
                    CREATE (c2)-[:MENTIONS]->(neo)""").consume();
        }
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    @Test
    void aChunksDocumentAndItsEntitiesAreItsSubjects() {
        Neo4jChunkSubjects subjects = new Neo4jChunkSubjects(driver);
        assertThat(subjects.of(List.of("subj-a/d1#0")))
                .as("its own collection's document only, and what it mentions, not what the other chunk mentions")
                .containsExactlyInAnyOrder("subj-a/d1", "subj-a/entity/kafka");
        assertThat(subjects.of(List.of("subj-a/d1#0", "subj-a/d2#0")))
                .containsExactlyInAnyOrder("subj-a/d1", "subj-a/d2", "subj-a/entity/kafka", "subj-a/entity/neo4j");
    }

    @Test
    void chunksThatDoNotExistAndHostileIdsAddNothing() {
        Neo4jChunkSubjects subjects = new Neo4jChunkSubjects(driver);
        assertThat(subjects.of(List.of())).isEmpty();
        assertThat(subjects.of(List.of("subj-a/missing#0", "') MATCH (n) DETACH DELETE n //", "subj-a/d1"))).isEmpty();
        try (var session = driver.session()) {
            assertThat(session.run("MATCH (n:Document) WHERE n.uid STARTS WITH 'subj-' RETURN count(n) AS n").single()
                    .get("n").asInt()).as("the graph is untouched").isEqualTo(3);
        }
        assertThat(subjects.of(List.of("subj-a/d2#0", "subj-a/missing#0"))).as("the control beside them")
                .containsExactlyInAnyOrder("subj-a/d2", "subj-a/entity/neo4j");
    }
}
