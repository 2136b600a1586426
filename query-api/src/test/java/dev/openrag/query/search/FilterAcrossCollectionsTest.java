package dev.openrag.query.search;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.neo4j.Neo4jDocumentMetadata;
import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.localstack.test.AppSettings;
import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * Filters that keep one document in 200 in every retriever (the graph's seeds and steps filtered
 * inside its query), a filter's unknown keys named, several collections in one search and answer,
 * and facets, on real Neo4j and OpenSearch; hostile inputs beside their controls.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
// what is judged is which hits come back, not how fast: a busy machine must not turn a slow retriever into a missing one
@WithTestResource(value = AppSettings.class, initArgs = @ResourceArg(name = "openrag.search.read-timeout", value = "PT30S"))
public class FilterAcrossCollectionsTest {

    private static final String HAYSTACK = "mq-haystack";
    private static final String ALPHA = "mq-alpha";
    private static final String BETA = "mq-beta";
    private static final int DOCUMENTS = 200;
    private static final String QUERY = "invoice payment retries";
    private static boolean loaded;

    @Inject
    Driver driver;

    @Inject
    OpenSearchClient openSearch;

    @Inject
    Embedder embedder;

    @Inject
    dev.openrag.knowledge.port.LexicalIndex lexical;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        // 199 documents whose one chunk is about the query, and one whose middle chunk is less so but the
        // only one the filter keeps: its best chunk (#1) must come first, its other chunks after
        List<String> noise = new ArrayList<>();
        for (int i = 0; i < DOCUMENTS - 1; i++) {
            noise.add("Invoice payment retries: the billing service retries a failed invoice payment, attempt " + i + ".");
        }
        List<float[]> vectors = embedder.embed(noise);
        List<IndexedChunk> noiseChunks = new ArrayList<>();
        for (int i = 0; i < noise.size(); i++) {
            Map<String, Object> metadata = Map.of("team", i % 2 == 0 ? "billing" : "risk", "year", 2020 + i % 5);
            noiseChunks.add(chunk(HAYSTACK, "noise-" + i, 0, noise.get(i), vectors.get(i), metadata));
        }
        write(HAYSTACK, noiseChunks);
        List<String> needle = List.of("Treasury overview: how the desk settles accounts at month end.",
                "When invoice payment retries fail, settle the invoice by bank transfer instead.",
                "Contact the treasury desk for exceptions and approvals.");
        List<float[]> needleVectors = embedder.embed(needle);
        List<IndexedChunk> needleChunks = new ArrayList<>();
        for (int i = 0; i < needle.size(); i++) {
            needleChunks.add(chunk(HAYSTACK, "needle", i, needle.get(i), needleVectors.get(i), Map.of("team", "treasury", "year", 2026)));
        }
        write(HAYSTACK, needleChunks);

        write(ALPHA, List.of(chunk(ALPHA, "a1", 0, "Kafka consumers in one group share the partitions of a topic.",
                embedder.embed(List.of("Kafka consumers in one group share the partitions of a topic.")).get(0), Map.of("team", "platform"))));
        write(BETA, List.of(chunk(BETA, "b1", 0, "Kafka topics are split into partitions that consumers read.",
                embedder.embed(List.of("Kafka topics are split into partitions that consumers read.")).get(0), Map.of("owner", "bob"))));
        // a collection's first query can outlast the read deadline on a busy machine: warm each once, unasserted
        for (String collection : List.of(HAYSTACK, ALPHA, BETA)) {
            for (String mode : List.of("hybrid", "graph")) {
                given().contentType(ContentType.JSON).body(Map.of("query", QUERY, "collection", collection, "mode", mode,
                        "filter", Map.of("team", "treasury"))).post("/api/search");
            }
        }
        loaded = true;
    }

    private static IndexedChunk chunk(String collection, String documentId, int index, String text, float[] vector,
                                      Map<String, Object> metadata) {
        return new IndexedChunk(collection, documentId, collection + "/" + documentId + "#" + index, index, "Doc " + documentId,
                "file:///" + documentId, List.of(), text, "Document: Doc " + documentId, vector, metadata);
    }

    private void write(String collection, List<IndexedChunk> chunks) {
        Map<String, List<IndexedChunk>> byDocument = new java.util.LinkedHashMap<>();
        chunks.forEach(chunk -> byDocument.computeIfAbsent(chunk.documentId(), id -> new ArrayList<>()).add(chunk));
        Neo4jGraphStore graph = new Neo4jGraphStore(driver);
        Neo4jDocumentMetadata metadata = new Neo4jDocumentMetadata(driver);
        byDocument.forEach((documentId, own) -> {
            graph.upsertDocument(collection, documentId, own.get(0).title(), own.get(0).sourceUri(), "h", own, List.of());
            metadata.replaceMetadata(collection, documentId, own.get(0).metadata());
        });
        new OpenSearchLexicalIndex(openSearch, true).upsert(chunks);
    }

    private static JsonPath search(Map<String, Object> body) {
        Map<String, Object> request = new HashMap<>(Map.of("k", 5, "rerank", false));
        request.putAll(body);
        return given().contentType(ContentType.JSON).body(request).post("/api/search").then().statusCode(200).extract().jsonPath();
    }

    @ParameterizedTest
    @ValueSource(strings = {"vector", "bm25", "graph", "hybrid"})
    void aFilterKeepingOneDocumentIn200FindsItsBestChunkFirst(String mode) {
        // the control: unfiltered, the 199 others fill the top 5
        assertThat(search(Map.of("query", QUERY, "collection", HAYSTACK, "mode", mode)).getList("results.documentId", String.class))
                .isNotEmpty().doesNotContain("needle");

        JsonPath filtered = search(Map.of("query", QUERY, "collection", HAYSTACK, "mode", mode, "filter", Map.of("team", "treasury"),
                "explain", true));
        System.out.printf("%s filtered timings: %s%n", mode, filtered.getMap("timings"));
        assertThat(filtered.getList("results.documentId", String.class)).as(mode).isNotEmpty().containsOnly("needle");
        assertThat(filtered.getString("results[0].chunkId")).as(mode).isEqualTo(HAYSTACK + "/needle#1");
        assertThat(filtered.getString("unknownFilterKeys")).isNull();
    }

    @Test
    void aBroaderFilterStillKeepsOnlyItsDocumentsInTheGraph() {
        List<String> ids = search(Map.of("query", QUERY, "collection", HAYSTACK, "mode", "graph", "k", 50,
                "filter", Map.of("team", "risk", "year", Map.of("gte", 2023)))).getList("results.documentId", String.class);
        assertThat(ids).isNotEmpty();
        // risk documents are the odd ones; years 2023-2024 are i % 5 in {3, 4}
        for (String id : ids) {
            int i = Integer.parseInt(id.substring("noise-".length()));
            assertThat(i % 2).as(id).isEqualTo(1);
            assertThat(i % 5).as(id).isGreaterThanOrEqualTo(3);
        }
    }

    /**
     * A field in the index mapping that no chunk holds (parsing maps a document's new fields before any store has it,
     * and a refused or deleted document never fills them) is still a key no document has: named, and no facet field.
     */
    @Test
    void aKeyOnlyMappedForADocumentNeverWrittenIsNamedAsUnknown() {
        lexical.reserveMetadataFields(HAYSTACK, Map.of("ghost", "x", "ghostYear", 2024));
        JsonPath ghost = search(Map.of("query", QUERY, "collection", HAYSTACK, "filter", Map.of("ghost", "x")));
        assertThat(ghost.getList("results")).isEmpty();
        assertThat(ghost.getList("unknownFilterKeys", String.class)).containsExactly("ghost");
        // the control: beside a key documents hold, only the mapped-but-empty one is named
        JsonPath mixed = search(Map.of("query", QUERY, "collection", HAYSTACK,
                "filter", Map.of("or", List.of(Map.of("team", "treasury"), Map.of("ghostYear", Map.of("gte", 2000))))));
        assertThat(mixed.getList("results.documentId", String.class)).containsOnly("needle");
        assertThat(mixed.getList("unknownFilterKeys", String.class)).containsExactly("ghostYear");
        List<String> fields = given().get("/api/facets?collection=" + HAYSTACK).then().statusCode(200).extract().jsonPath()
                .getList("fields", String.class);
        assertThat(fields).contains("team", "year").doesNotContain("ghost", "ghostYear");
    }

    @Test
    void aKeyNoDocumentHasMatchesNothingAndIsNamed() {
        JsonPath unknown = search(Map.of("query", QUERY, "collection", HAYSTACK, "filter", Map.of("teem", "treasury")));
        assertThat(unknown.getList("results")).isEmpty();
        assertThat(unknown.getList("unknownFilterKeys", String.class)).containsExactly("teem");
        // beside a known key in an or: the known one still selects, the unknown one is still named
        JsonPath mixed = search(Map.of("query", QUERY, "collection", HAYSTACK,
                "filter", Map.of("or", List.of(Map.of("team", "treasury"), Map.of("colour", Map.of("in", List.of("red", "blue")))))));
        assertThat(mixed.getList("results.documentId", String.class)).containsOnly("needle");
        assertThat(mixed.getList("unknownFilterKeys", String.class)).containsExactly("colour");
        // a key that only another collection has is unknown here, and known in a search that covers both
        assertThat(search(Map.of("query", "kafka partitions", "collection", ALPHA, "filter", Map.of("owner", "bob")))
                .getList("unknownFilterKeys", String.class)).containsExactly("owner");
        JsonPath both = search(Map.of("query", "kafka partitions", "collections", List.of(ALPHA, BETA), "filter", Map.of("owner", "bob")));
        assertThat(both.getList("results.documentId", String.class)).containsExactly("b1");
        assertThat(both.getString("unknownFilterKeys")).isNull();
        // and the answer says so too
        given().contentType(ContentType.JSON).body(Map.of("question", "how are retries settled?", "collection", HAYSTACK,
                "filter", Map.of("teem", "x"))).post("/api/ask").then().statusCode(200)
                .body("sources", equalTo(List.of())).body("unknownFilterKeys", equalTo(List.of("teem")));
    }

    @Test
    void severalCollectionsAreFusedAndEachHitNamesItsOwn() {
        JsonPath both = search(Map.of("query", "kafka partitions consumers", "collections", List.of(ALPHA, BETA), "mode", "hybrid"));
        assertThat(both.getList("results.collection", String.class)).containsExactlyInAnyOrder(ALPHA, BETA);
        assertThat(both.getList("results.chunkId", String.class)).containsExactlyInAnyOrder(ALPHA + "/a1#0", BETA + "/b1#0");
        assertThat(both.getList("collections", String.class)).containsExactly(ALPHA, BETA);
        // each collection's first hit scores 1 / (rrfK + 1): fused by rank, not by each search's own scale
        assertThat(both.getDouble("results[0].score")).isEqualTo(both.getDouble("results[1].score"));
        // every collection with something in it, with "*" as a string or a one-item list
        for (Object every : List.of("*", List.of("*"))) {
            JsonPath all = search(Map.of("query", "kafka partitions consumers", "collections", every, "k", 20));
            assertThat(all.getList("collections", String.class)).contains(ALPHA, BETA, HAYSTACK);
            assertThat(all.getList("results.collection", String.class)).contains(ALPHA, BETA);
        }
        // one named collection is the plain search, collection named on every hit
        JsonPath one = search(Map.of("query", "kafka partitions", "collections", List.of(ALPHA)));
        assertThat(one.getList("results.collection", String.class)).containsOnly(ALPHA);
        assertThat(one.getString("collections")).isNull();
        // a filter applies in each; the answer cites across collections with each source's collection
        assertThat(search(Map.of("query", "kafka", "collections", List.of(ALPHA, BETA), "filter", Map.of("team", "platform")))
                .getList("results.documentId", String.class)).containsExactly("a1");
        given().contentType(ContentType.JSON).body(Map.of("question", "how do consumers share partitions?", "collections",
                        List.of(ALPHA, BETA), "k", 4)).post("/api/ask").then().statusCode(200)
                .body("sources.collection", hasItem(ALPHA)).body("sources.collection", hasItem(BETA));
    }

    @Test
    void facetsCountDocumentsPerValue() {
        JsonPath team = given().queryParam("collection", HAYSTACK).queryParam("field", "team").get("/api/facets")
                .then().statusCode(200).extract().jsonPath();
        // documents, not chunks: the needle's three chunks count once
        assertThat(team.getList("values.value", String.class)).containsExactly("billing", "risk", "treasury");
        assertThat(team.getList("values.count", Integer.class)).containsExactly(100, 99, 1);
        assertThat(team.getList("values.kind", String.class)).containsOnly("string");
        JsonPath year = given().queryParam("collection", HAYSTACK).queryParam("field", "year").queryParam("size", 2).get("/api/facets")
                .then().statusCode(200).extract().jsonPath();
        assertThat(year.getList("values")).hasSize(2);
        assertThat(year.getList("values.kind", String.class)).containsOnly("number");
        // only documents whose chunks match the query
        JsonPath treasury = given().queryParam("collection", HAYSTACK).queryParam("field", "team").queryParam("query", "treasury desk")
                .get("/api/facets").then().statusCode(200).extract().jsonPath();
        assertThat(treasury.getList("values.value", String.class)).containsExactly("treasury");
        // without a field: the keys the documents have; a key none has: no values, no error
        assertThat(given().queryParam("collection", HAYSTACK).get("/api/facets").then().statusCode(200).extract().jsonPath()
                .getList("fields", String.class)).contains("team", "year").doesNotContain("owner");
        given().queryParam("collection", HAYSTACK).queryParam("field", "owner").get("/api/facets").then().statusCode(200)
                .body("values", equalTo(List.of()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a.b", "meta_s.team", "'] or 1=1", "in", "x y", "", "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"})
    void aBadFacetFieldIsA400(String field) {
        given().queryParam("collection", HAYSTACK).queryParam("field", field.isEmpty() ? "-" : field).get("/api/facets")
                .then().statusCode(400).contentType(ContentType.JSON).body("error", equalTo("bad_request"))
                .body("message", containsString("field"));
        given().queryParam("collection", HAYSTACK).queryParam("field", "team").get("/api/facets").then().statusCode(200);
    }

    @Test
    void badFacetRequestsAre400s() {
        given().queryParam("collection", "../etc").queryParam("field", "team").get("/api/facets").then().statusCode(400);
        given().queryParam("collection", HAYSTACK).queryParam("field", "team").queryParam("size", 0).get("/api/facets")
                .then().statusCode(400).body("message", containsString("size"));
        given().queryParam("collection", HAYSTACK).queryParam("field", "team").queryParam("size", 101).get("/api/facets")
                .then().statusCode(400);
    }

    @ParameterizedTest
    @ValueSource(strings = {"../mq-alpha", "MQ-ALPHA", "mq alpha", "mq-alpha\u0000", "mq-alpha/../mq-beta", "*,mq-beta", "é"})
    void aCollectionNameWithOddCharactersIsA400ThatNamesTheField(String name) {
        given().contentType(ContentType.JSON).body(Map.of("query", "kafka", "collections", List.of(ALPHA, name))).post("/api/search")
                .then().statusCode(400).contentType(ContentType.JSON).body("message", containsString("collections"));
        // the control: the good names alone answer
        search(Map.of("query", "kafka", "collections", List.of(ALPHA, BETA)));
    }

    @Test
    void malformedCollectionListsAre400s() {
        given().contentType(ContentType.JSON).body(Map.of("query", "kafka", "collections", List.of())).post("/api/search")
                .then().statusCode(400).body("message", containsString("collections"));
        given().contentType(ContentType.JSON).body(Map.of("query", "kafka", "collection", ALPHA, "collections", List.of(BETA)))
                .post("/api/search").then().statusCode(400).body("message", containsString("not both"));
        given().contentType(ContentType.JSON).body(Map.of("query", "kafka", "collections", List.of("*", ALPHA))).post("/api/search")
                .then().statusCode(400).body("message", containsString("\"*\""));
        List<String> many = new ArrayList<>();
        for (int i = 0; i < CollectionSelection.MAX_COLLECTIONS + 1; i++) {
            many.add("c" + i);
        }
        given().contentType(ContentType.JSON).body(Map.of("query", "kafka", "collections", many)).post("/api/search")
                .then().statusCode(400).body("message", containsString("at most " + CollectionSelection.MAX_COLLECTIONS));
        given().contentType(ContentType.JSON).body("{\"query\": \"kafka\", \"collections\": {\"a\": 1}}").post("/api/search")
                .then().statusCode(400);
    }

    @Test
    void aFilterNestedTooDeeplyIsA400AndOneAtTheLimitAnswers() {
        Object atLimit = Map.of("team", "treasury");
        for (int depth = 1; depth < dev.openrag.knowledge.filter.DocumentFilters.MAX_DEPTH; depth++) {
            atLimit = Map.of("and", List.of(atLimit));
        }
        assertThat(search(Map.of("query", QUERY, "collection", HAYSTACK, "mode", "graph", "filter", atLimit))
                .getList("results.documentId", String.class)).containsOnly("needle");
        Object tooDeep = Map.of("or", List.of(atLimit));
        given().contentType(ContentType.JSON).body(Map.of("query", QUERY, "collection", HAYSTACK, "filter", tooDeep)).post("/api/search")
                .then().statusCode(400).body("message", containsString("nests deeper"));
        // far deeper than any limit: still a clean 400, not a stack overflow. Sent without the request logged on a failure:
        // RestAssured would pretty-print the 5,000 levels for that log first, 25-40 s
        StringBuilder deep = new StringBuilder();
        deep.append("{\"and\": [".repeat(5000)).append("{\"team\": \"x\"}").append("]}".repeat(5000));
        given().config(io.restassured.RestAssured.config().logConfig(io.restassured.config.LogConfig.logConfig()))
                .contentType(ContentType.JSON).body("{\"query\": \"q\", \"collection\": \"" + HAYSTACK + "\", \"filter\": " + deep + "}")
                .post("/api/search").then().statusCode(400).contentType(ContentType.JSON);
    }

    @Test
    void aHugeInListIsA400AndOneAtTheLimitAnswersInEveryRetriever() {
        List<String> atLimit = new ArrayList<>(Collections.nCopies(dev.openrag.knowledge.filter.DocumentFilters.MAX_IN_VALUES - 1, "nobody"));
        atLimit.add("treasury");
        for (String mode : List.of("vector", "bm25", "graph", "hybrid")) {
            assertThat(search(Map.of("query", QUERY, "collection", HAYSTACK, "mode", mode, "filter", Map.of("team", Map.of("in", atLimit))))
                    .getList("results.documentId", String.class)).as(mode).containsOnly("needle");
        }
        List<String> tooMany = new ArrayList<>(atLimit);
        tooMany.add("one more");
        given().contentType(ContentType.JSON).body(Map.of("query", QUERY, "collection", HAYSTACK, "filter", Map.of("team", Map.of("in", tooMany))))
                .post("/api/search").then().statusCode(400).body("message", containsString("at most"));
        List<String> huge = Collections.nCopies(100_000, "x");
        given().contentType(ContentType.JSON).body(Map.of("query", QUERY, "collection", HAYSTACK, "filter", Map.of("team", Map.of("in", huge))))
                .post("/api/search").then().statusCode(400);
    }

    @Test
    void hitsOfSeveralCollectionsCarryTheirMetadata() {
        given().contentType(ContentType.JSON).body(Map.of("query", "kafka partitions", "collections", List.of(ALPHA, BETA), "k", 5))
                .post("/api/search").then().statusCode(200)
                .body("results.find { it.collection == '" + ALPHA + "' }.metadata.team", equalTo("platform"))
                .body("results.find { it.collection == '" + BETA + "' }.metadata.owner", equalTo("bob"))
                .body("results.collection", everyItem(not(nullValue())))
                .body("results.collection", not(hasItem(HAYSTACK)));
        assertThat(Set.of(ALPHA, BETA)).hasSize(2);
    }
}
