package dev.openrag.knowledge.neo4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.localstack.Engine;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.LocalStackExtension.WithEngines;

/**
 * Summary search within the documents a filter selects, against real Neo4j: the selected documents' best sections,
 * even when the collection holds better ones elsewhere, and never a section of another document or collection.
 */
@WithEngines({Engine.NEO4J})
class Neo4jSummaryIndexTest {

    private static final float[] QUERY = {1, 0, 0, 0};
    private static Driver driver;

    @BeforeAll
    static void connect(StackConfig config) {
        driver = GraphDatabase.driver(config.neo4jUri(), AuthTokens.none());
        Neo4jSchema.bootstrap(driver, 4);
        try (var session = driver.session()) {
            // d0..d11 of sum-f, their sections the closer to the query the lower their number; d11's the farthest;
            // the same d11 in sum-g, close to the query
            session.run("""
                    UNWIND range(0, 11) AS i
                    WITH i, [1.0, 0.05 * i, 0.0, 0.0] AS near
                    CREATE (s:Section {collection: 'sum-f', documentId: 'd' + i, embedding: near})
                    CREATE (s)-[:HAS_CHUNK]->(:Chunk {collection: 'sum-f', documentId: 'd' + i, chunkId: 'sum-f/d' + i + '#0',
                        chunkIndex: 0, text: 'text ' + i, embedding: near})""").consume();
            session.run("""
                    CREATE (s:Section {collection: 'sum-g', documentId: 'd11', embedding: [1.0, 0.0, 0.0, 0.0]})
                    CREATE (s)-[:HAS_CHUNK]->(:Chunk {collection: 'sum-g', documentId: 'd11', chunkId: 'sum-g/d11#0',
                        chunkIndex: 0, text: 'other', embedding: [1.0, 0.0, 0.0, 0.0]})""").consume();
        }
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    @Test
    void aSelectiveFilterGetsItsDocumentsBestSectionsNotNone() {
        Neo4jSummaryIndex index = new Neo4jSummaryIndex(driver);
        assertThat(ids(index.searchBySummary("sum-f", QUERY, 10, 10, Set.of("d11")))).containsExactly("sum-f/d11#0");
        assertThat(ids(index.searchBySummary("sum-f", QUERY, 10, 10, Set.of("d11", "d5")))).containsExactly("sum-f/d5#0", "sum-f/d11#0");
        assertThat(index.searchBySummary("sum-f", QUERY, 10, 10, Set.of("d11")).get(0).rank()).isEqualTo(1);
        // nothing selected, or only documents that are not there: nothing
        assertThat(index.searchBySummary("sum-f", QUERY, 10, 10, Set.of())).isEmpty();
        assertThat(index.searchBySummary("sum-f", QUERY, 10, 10, Set.of("missing", "') MATCH (n) DETACH DELETE n //"))).isEmpty();
        // the controls: unfiltered, the collection's ten best sections, which do not include d11, and none of sum-g
        List<String> whole = ids(index.searchBySummary("sum-f", QUERY, 10, 10));
        assertThat(whole).hasSize(10).startsWith("sum-f/d0#0").doesNotContain("sum-f/d11#0", "sum-g/d11#0");
        assertThat(ids(index.searchBySummary("sum-f", QUERY, 10, 10, null))).isEqualTo(whole);
    }

    private static List<String> ids(List<ScoredChunk> hits) {
        return hits.stream().map(hit -> hit.chunk().chunkId()).toList();
    }
}
