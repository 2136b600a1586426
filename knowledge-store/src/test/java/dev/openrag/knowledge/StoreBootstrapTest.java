package dev.openrag.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.neo4j.Neo4jSchema;
import dev.openrag.knowledge.neo4j.Neo4jVectorIndex;
import dev.openrag.knowledge.opensearch.ChunkIndex;
import dev.openrag.knowledge.opensearch.OpenSearchClients;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.localstack.Engine;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.LocalStackExtension.WithEngines;

/** Store bootstrap and the lexical adapter against real Neo4j and OpenSearch. */
@WithEngines({Engine.NEO4J, Engine.OPENSEARCH})
class StoreBootstrapTest {

    private static Driver driver;
    private static OpenSearchClient openSearch;

    @BeforeAll
    static void connect(StackConfig config) {
        driver = GraphDatabase.driver(config.neo4jUri(), AuthTokens.none());
        openSearch = OpenSearchClients.create(config.openSearchUrl());
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    @Test
    void neo4jSchemaIsIdempotentAndTheChunkVectorIndexAnswers() {
        Neo4jSchema.bootstrap(driver, 4);
        Neo4jSchema.bootstrap(driver, 4);

        try (var session = driver.session()) {
            List<String> constraints = session.run("SHOW CONSTRAINTS YIELD name RETURN name").list(r -> r.get("name").asString());
            assertThat(constraints).contains("chunk_id", "document_uid", "entity_uid")
                    .as("memory's constraints are its own (MemorySchema)").doesNotContain("memory_id");
            List<String> indexes = session.run("SHOW INDEXES YIELD name, state WHERE state = 'ONLINE' RETURN name")
                    .list(r -> r.get("name").asString());
            assertThat(indexes).contains(Neo4jSchema.CHUNK_VECTOR_INDEX, Neo4jSchema.SECTION_VECTOR_INDEX)
                    .as("BM25 is OpenSearch's: no fulltext index to keep up on every chunk write").doesNotContain("chunk_text");

            session.run("UNWIND $rows AS row MERGE (c:Chunk {chunkId: row.id}) SET c.text = row.text "
                            + "WITH c, row CALL db.create.setNodeVectorProperty(c, 'embedding', row.vector)",
                    Map.of("rows", List.of(
                            Map.of("id", "t/d#0", "text", "consumer groups", "vector", List.of(1.0, 0.0, 0.0, 0.0)),
                            Map.of("id", "t/d#1", "text", "vector search", "vector", List.of(0.0, 0.0, 1.0, 0.0))))).consume();
            String nearest = session.run("CALL db.index.vector.queryNodes($index, 1, $q) YIELD node RETURN node.chunkId AS id",
                    Map.of("index", Neo4jSchema.CHUNK_VECTOR_INDEX, "q", List.of(0.1, 0.0, 0.9, 0.0))).single().get("id").asString();
            assertThat(nearest).isEqualTo("t/d#1");

            assertThatThrownBy(() -> session.run("CREATE (:Chunk {chunkId: 't/d#0'})").consume())
                    .as("chunk ids are unique").hasMessageContaining("t/d#0");
        }
    }

    /**
     * A start runs only the schema statements that change something, in one transaction ({@link Neo4jSchema#applyMissing}):
     * what is missing is made, what an older version left is dropped, and apps starting together (`openrag up` starts
     * three) all finish with the whole schema. Control: the statements that change nothing leave the rest as it was.
     */
    @Test
    void missingSchemaIsMadeAnOldIndexDroppedAndConcurrentStartsAllFinish() throws Exception {
        Neo4jSchema.bootstrap(driver, 4);
        try (var session = driver.session()) {
            session.run("DROP CONSTRAINT correction_id IF EXISTS").consume();
            session.run("DROP CONSTRAINT api_key_hash IF EXISTS").consume();
            session.run("DROP INDEX correction_scope IF EXISTS").consume();
            session.run("CREATE FULLTEXT INDEX chunk_text IF NOT EXISTS FOR (n:Chunk) ON EACH [n.text, n.context]").consume();
        }
        java.util.concurrent.ExecutorService starts = java.util.concurrent.Executors.newFixedThreadPool(3);
        try {
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                done.add(starts.submit(() -> Neo4jSchema.bootstrap(driver, 4)));
            }
            for (java.util.concurrent.Future<?> start : done) {
                start.get(2, java.util.concurrent.TimeUnit.MINUTES);
            }
        } finally {
            starts.shutdownNow();
        }
        try (var session = driver.session()) {
            List<String> constraints = session.run("SHOW CONSTRAINTS YIELD name RETURN name").list(r -> r.get("name").asString());
            assertThat(constraints).contains("correction_id", "api_key_hash", "chunk_id", "document_uid");
            List<String> indexes = session.run("SHOW INDEXES YIELD name RETURN name").list(r -> r.get("name").asString());
            assertThat(indexes).contains("correction_scope", Neo4jSchema.GRAPH_WORDS_INDEX, Neo4jSchema.CHUNK_VECTOR_INDEX)
                    .doesNotContain("chunk_text");
            assertThat(indexes.stream().filter("correction_scope"::equals)).as("made once").hasSize(1);
        }
    }

    @Test
    void theChunkVectorIndexFiltersByCollectionSoASmallCollectionGetsItsOwnNeighbours() {
        try (var session = driver.session()) {
            // the index as an older version made it, without the collection filter property
            session.run("DROP INDEX " + Neo4jSchema.CHUNK_VECTOR_INDEX + " IF EXISTS").consume();
            session.run("CREATE VECTOR INDEX " + Neo4jSchema.CHUNK_VECTOR_INDEX + " FOR (n:Chunk) ON n.embedding "
                    + "OPTIONS {indexConfig: {`vector.dimensions`: 4, `vector.similarity_function`: 'cosine'}}").consume();
        }
        Neo4jSchema.bootstrap(driver, 4);

        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < 300; i++) { // a big collection whose vectors all lie closer to the query
            rows.add(Map.of("collection", "big", "id", "big/d#" + i, "index", i, "vector", List.of(1.0, 0.01 * (i % 7), 0.0, 0.0)));
        }
        for (int i = 0; i < 3; i++) {
            rows.add(Map.of("collection", "small", "id", "small/d#" + i, "index", i, "vector", List.of(0.5, 0.0, 1.0 + i, 0.0)));
        }
        try (var session = driver.session()) {
            List<String> properties = session.run("SHOW INDEXES YIELD name, properties WHERE name = $name RETURN properties",
                    Map.of("name", Neo4jSchema.CHUNK_VECTOR_INDEX)).single().get("properties").asList(org.neo4j.driver.Value::asString);
            assertThat(properties).as("rebuilt with the filter property").contains("embedding", "collection");
            session.run("UNWIND $rows AS row MERGE (c:Chunk {chunkId: row.id}) "
                            + "SET c.collection = row.collection, c.documentId = 'd', c.chunkIndex = row.index, c.text = row.id "
                            + "WITH c, row CALL db.create.setNodeVectorProperty(c, 'embedding', row.vector)",
                    Map.of("rows", rows)).consume();
        }

        List<ScoredChunk> hits = new Neo4jVectorIndex(driver).search("small", new float[] {1, 0, 0.2f, 0}, 3);

        assertThat(hits).extracting(hit -> hit.chunk().chunkId()).containsExactly("small/d#0", "small/d#1", "small/d#2");
        assertThat(hits).extracting(ScoredChunk::rank).containsExactly(1, 2, 3);
        assertThat(hits.get(0).chunk().text()).isEqualTo("small/d#0");
        assertThat(hits.get(0).chunk().vector()).as("the embedding stays in Neo4j").isNull();
    }

    @Test
    void aCollectionThatRepeatsAnotherCollectionsVectorsStillGetsItsExactNeighbours() {
        Neo4jSchema.bootstrap(driver, 4);
        // the same 200 documents imported into four collections, one after the other (an eval run,
        // a staging copy): the graph links each later copy of a vector to an earlier copy alone
        java.util.Random random = new java.util.Random(11);
        List<List<Double>> vectors = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            vectors.add(List.of(random.nextGaussian(), random.nextGaussian(), random.nextGaussian(), random.nextGaussian()));
        }
        try (var session = driver.session()) {
            for (String collection : List.of("copy-a", "copy-b", "copy-c", "copy-d")) {
                List<Map<String, Object>> rows = new ArrayList<>();
                for (int i = 0; i < vectors.size(); i++) {
                    rows.add(Map.of("collection", collection, "id", collection + "/d#" + i, "index", i, "vector", vectors.get(i)));
                }
                session.run("UNWIND $rows AS row MERGE (c:Chunk {chunkId: row.id}) "
                                + "SET c.collection = row.collection, c.documentId = 'd', c.chunkIndex = row.index, c.text = row.id "
                                + "WITH c, row CALL db.create.setNodeVectorProperty(c, 'embedding', row.vector)",
                        Map.of("rows", rows)).consume();
            }
        }
        Neo4jVectorIndex index = new Neo4jVectorIndex(driver);

        int wrong = 0;
        for (int q = 0; q < 50; q++) {
            float[] query = {(float) random.nextGaussian(), (float) random.nextGaussian(), (float) random.nextGaussian(),
                    (float) random.nextGaussian()};
            List<Integer> found = index.search("copy-d", query, 10).stream().map(hit -> hit.chunk().chunkIndex()).toList();
            wrong += found.equals(exactNearest(vectors, query, 10)) ? 0 : 1;
        }

        assertThat(wrong).as("searches of the last copy that missed one of its 10 exact nearest neighbours").isZero();
    }

    /** The indexes of the k vectors with the highest cosine to the query, best first. */
    private static List<Integer> exactNearest(List<List<Double>> vectors, float[] query, int k) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < vectors.size(); i++) {
            order.add(i);
        }
        java.util.function.ToDoubleFunction<Integer> cosine = i -> {
            double dot = 0;
            double norm = 0;
            double queryNorm = 0;
            for (int d = 0; d < query.length; d++) {
                dot += vectors.get(i).get(d) * query[d];
                norm += vectors.get(i).get(d) * vectors.get(i).get(d);
                queryNorm += query[d] * query[d];
            }
            return dot / Math.sqrt(norm * queryNorm);
        };
        order.sort(java.util.Comparator.comparingDouble(cosine).reversed());
        return order.subList(0, k);
    }

    @Test
    void aVectorIndexOfAnotherDimensionIsAClearError() {
        Neo4jSchema.bootstrap(driver, 4);

        assertThatThrownBy(() -> Neo4jSchema.bootstrap(driver, 384))
                .hasMessageContaining("has dimension 4 but the embedding model produces 384");
    }

    @Test
    void chunkIndexUsesEnglishAndIdentifierAnalysisForBm25() {
        assertThat(ChunkIndex.ensure(openSearch, "bm25-test")).isTrue();
        assertThat(ChunkIndex.ensure(openSearch, "bm25-test")).as("idempotent").isFalse();
        OpenSearchLexicalIndex index = new OpenSearchLexicalIndex(openSearch, true);
        index.upsert(List.of(
                chunk(0, "fn parseHttpHeader(raw: &str) -> Header", "Defines parseHttpHeader in http.rs"),
                chunk(1, "The scheduler runs queued jobs in parallel.", "From jobs.md, section Scheduling"),
                chunk(2, "Unrelated text about gardening tomatoes.", "From garden.md")));

        List<ScoredChunk> identifier = index.search("bm25-test", "http header parsing", 3);
        assertThat(identifier).isNotEmpty();
        assertThat(identifier.get(0).chunk().chunkIndex()).as("identifier split + stemming").isEqualTo(0);
        List<ScoredChunk> stemmed = index.search("bm25-test", "schedulers running job", 3);
        assertThat(stemmed.get(0).chunk().chunkIndex()).isEqualTo(1);
        assertThat(stemmed.get(0).rank()).isEqualTo(1);

        index.upsert(List.of(chunk(1, "The scheduler runs queued jobs in parallel.", "From jobs.md, section Scheduling")));
        assertThat(index.countChunks("bm25-test")).as("upsert by chunk id").isEqualTo(3);
        index.deleteDocument("bm25-test", "doc-1");
        assertThat(index.countChunks("bm25-test")).isZero();
        assertThat(index.search("unknown-collection", "anything", 5)).isEmpty();
    }

    @Test
    void invalidCollectionNamesAreRejectedBeforeReachingOpenSearch() {
        assertThatThrownBy(() -> ChunkIndex.name("../etc")).hasMessageContaining("invalid collection name '../etc'");
        assertThatThrownBy(() -> ChunkIndex.name("UPPER")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ChunkIndex.name(null)).isInstanceOf(IllegalArgumentException.class);
    }

    private static IndexedChunk chunk(int index, String text, String context) {
        return new IndexedChunk("bm25-test", "doc-1", "bm25-test/doc-1#" + index, index, "Doc one", "file:///doc-1",
                List.of(), text, context, null);
    }
}
