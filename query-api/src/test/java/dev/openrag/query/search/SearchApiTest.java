package dev.openrag.query.search;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.notNullValue;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.query.SearchFixture;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/** Search over a small fixture written into real Neo4j and OpenSearch. */
@QuarkusTest
@QuarkusTestResource(value = LocalStackTestResource.class, restrictToAnnotatedClass = true)
class SearchApiTest {

    static final String COLLECTION = SearchFixture.COLLECTION;
    private static boolean loaded;

    @Inject
    Driver driver;

    @Inject
    OpenSearchClient openSearch;

    @Inject
    Embedder embedder;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        Neo4jGraphStore graph = new Neo4jGraphStore(driver);
        List<IndexedChunk> chunks = SearchFixture.chunks(embedder);
        for (IndexedChunk chunk : chunks) {
            graph.upsertDocument(COLLECTION, chunk.documentId(), chunk.title(), chunk.sourceUri(), "h", List.of(chunk));
        }
        new OpenSearchLexicalIndex(openSearch, true).upsert(chunks);
        loaded = true;
    }

    private static Map<String, Object> request(String query, String mode) {
        return Map.of("query", query, "k", 3, "collection", COLLECTION, "mode", mode, "explain", true);
    }

    @Test
    void bm25FindsIdentifiersSplitIntoWords() {
        given().contentType(ContentType.JSON).body(request("http header parsing", "bm25")).post("/api/search").then()
                .statusCode(200).body("results[0].documentId", equalTo("doc-0")).body("results[0].ranks.bm25", equalTo(1))
                .body("tookMs", notNullValue());
    }

    @Test
    void vectorFindsMeaningWithoutSharedWords() {
        given().contentType(ContentType.JSON).body(request("how should I care for vegetable plants in my garden", "vector"))
                .post("/api/search").then().statusCode(200).body("results[0].documentId", equalTo("doc-2"));
    }

    @Test
    void hybridFusesBothAndExplainsEachRetriever() {
        given().contentType(ContentType.JSON).body(request("which consumers share topic partitions", "hybrid")).post("/api/search")
                .then().statusCode(200)
                .body("mode", equalTo("hybrid"))
                .body("results[0].documentId", equalTo("doc-3"))
                .body("results[0].ranks", hasKey("vector"))
                .body("results[0].ranks", hasKey("bm25"))
                .body("results[0].scores", hasKey("bm25"))
                .body("results.chunkId", everyItem(containsString(COLLECTION + "/")))
                .body("results[0].context", equalTo("Document: Kafka notes"));
    }

    @Test
    void badRequestsNameTheProblem() {
        post(Map.of("query", " ", "collection", COLLECTION)).statusCode(400).body("message", containsString("'query'"));
        post(Map.of("query", "x", "k", 0, "collection", COLLECTION)).statusCode(400).body("message", containsString("'k' must be between 1 and 100"));
        post(Map.of("query", "x", "k", 101, "collection", COLLECTION)).statusCode(400);
        post(Map.of("query", "x", "mode", "fuzzy", "collection", COLLECTION)).statusCode(400).body("message", containsString("unknown mode 'fuzzy'"));
        post(Map.of("query", "x", "mode", "graph", "collection", COLLECTION)).statusCode(400).body("message", containsString("not available yet"));
        post(Map.of("query", "x", "collection", "never-ingested")).statusCode(400).body("message", containsString("unknown collection 'never-ingested'"));
        post(Map.of("query", "x", "collection", "Bad Name")).statusCode(400).body("error", equalTo("bad_request"));
    }

    private static io.restassured.response.ValidatableResponse post(Map<String, Object> body) {
        return given().contentType(ContentType.JSON).body(body).post("/api/search").then();
    }
}
