package dev.openrag.query.search;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.knowledge.port.Correction;
import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryStore;
import dev.openrag.memory.neo4j.Neo4jMemoryStore;
import dev.openrag.query.FixtureTest;
import dev.openrag.query.SearchFixture;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/** Search over a small fixture written into real Neo4j and OpenSearch. */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class SearchApiTest extends FixtureTest {

    static final String COLLECTION = SearchFixture.COLLECTION;

    private static Map<String, Object> request(String query, String mode) {
        return Map.of("query", query, "k", 3, "collection", COLLECTION, "mode", mode, "explain", true);
    }

    @Test
    void bm25FindsIdentifiersSplitIntoWords() {
        post(request("http header parsing", "bm25"))
                .statusCode(200).body("results[0].documentId", equalTo("doc-0")).body("results[0].ranks.bm25", equalTo(1))
                .body("tookMs", notNullValue());
    }

    @Test
    void vectorFindsMeaningWithoutSharedWords() {
        post(request("how should I care for vegetable plants in my garden", "vector")).statusCode(200).body("results[0].documentId", equalTo("doc-2"));
    }

    @Test
    void hybridFusesBothAndExplainsEachRetriever() {
        post(request("which consumers share topic partitions", "hybrid")).statusCode(200)
                .body("mode", equalTo("hybrid"))
                .body("results[0].documentId", equalTo("doc-3"))
                .body("results[0].ranks", hasKey("vector"))
                .body("results[0].ranks", hasKey("bm25"))
                .body("results[0].scores", hasKey("bm25"))
                .body("results.chunkId", everyItem(containsString(COLLECTION + "/")))
                .body("results[0].context", equalTo("Document: Kafka notes"));
    }

    @Test
    void relatedCorrectionsAndPinnedMemoriesComeBackWithTheResults() {
        MemoryStore memories = new Neo4jMemoryStore(driver);
        long now = System.currentTimeMillis();
        String scope = "search-test-" + now;
        new dev.openrag.knowledge.neo4j.Neo4jCorrectionStore(driver).add(new Correction("corr-" + now, scope, "Tomatoes need eight hours of sun, not six.",
                "how many hours of sun do tomatoes need?", null, null, now, null),
                embedder.embedQuery("how many hours of sun do tomatoes need?"));
        new dev.openrag.knowledge.neo4j.Neo4jCorrectionStore(driver).add(new Correction("corr-chunk-" + now, scope, "The scheduler uses virtual threads now.",
                null, COLLECTION + "/doc-1#0", null, now, null), embedder.embedQuery("The scheduler uses virtual threads now."));
        memories.add(new Memory("mem-" + now, scope, "The garden is in a shady courtyard", List.of(), true, now, now,
                null, null, null, List.of(), List.of()), embedder.embed(List.of("The garden is in a shady courtyard")).get(0));
        memories.add(new Memory("mem-unpinned-" + now, scope, "The garden has tomatoes and basil", List.of(), false, now, now,
                null, null, null, List.of(), List.of()), embedder.embed(List.of("The garden has tomatoes and basil")).get(0));

        Map<String, Object> tomatoes = Map.of("query", "How many hours of sunlight do tomato plants need?",
                "collection", COLLECTION, "k", 1, "scopes", List.of(scope));
        post(tomatoes).statusCode(200)
                .body("results[0].documentId", equalTo("doc-2"))
                .body("corrections.id", hasItem("corr-" + now))
                .body("corrections.id", not(hasItem("corr-chunk-" + now)))
                .body("memories.id", not(hasItem("mem-unpinned-" + now)));
        post(Map.of("query", "garden courtyard shade", "collection", COLLECTION, "k", 1, "scopes", List.of(scope))).statusCode(200)
                .body("memories.id", hasItem("mem-" + now));
        // a pinned memory about a document comes back whenever one of its chunks is a result, similar or not
        memories.add(new Memory("mem-about-" + now, scope, "Ask the platform team before changing this", List.of(), true, now, now,
                null, null, null, List.of("doc-1"), List.of()), embedder.embed(List.of("Ask the platform team")).get(0));
        post(Map.of("query", "queued jobs on worker threads", "collection", COLLECTION, "k", 1, "scopes", List.of(scope)))
                .statusCode(200).body("memories.id", hasItem("mem-about-" + now));
        // a correction attached to a chunk comes back whenever that chunk is a result
        post(Map.of("query", "queued jobs on worker threads", "collection", COLLECTION, "k", 1, "scopes", List.of(scope)))
                .statusCode(200).body("results[0].documentId", equalTo("doc-1")).body("corrections.id", hasItem("corr-chunk-" + now));
        // another scope sees none of it; an unrelated query gets none of it
        post(Map.of("query", "How many hours of sunlight do tomato plants need?", "collection", COLLECTION, "k", 1,
                "scopes", List.of("someone-else"))).statusCode(200).body("corrections", empty()).body("memories", empty());
        post(Map.of("query", "which consumers share topic partitions", "collection", COLLECTION, "k", 1, "scopes", List.of(scope)))
                .statusCode(200).body("corrections", empty()).body("memories", empty());
    }

    /** Issue 72: a repeated query takes its vector from the cache, and answers exactly as the first time. */
    @Test
    void aRepeatedQueryIsAnsweredFromTheVectorCacheWithTheSameResults() {
        // a text no other test asks, so the first ask is a miss whatever ran before
        Map<String, Object> search = Map.of("query", "which consumers share topic partitions " + System.nanoTime(), "k", 4,
                "collection", COLLECTION, "explain", true);
        double hitsBefore = cacheGets("hit");
        JsonPath miss = post(search).statusCode(200).extract().jsonPath();
        JsonPath hit = post(search).statusCode(200).extract().jsonPath();

        assertThat(miss.getString("cache.embedQuery")).isEqualTo("miss");
        assertThat(hit.getString("cache.embedQuery")).isEqualTo("hit");
        assertThat(hit.getList("results.chunkId")).isEqualTo(miss.getList("results.chunkId"));
        assertThat(hit.getList("results.score")).isEqualTo(miss.getList("results.score"));
        assertThat(hit.getList("results.ranks")).isEqualTo(miss.getList("results.ranks"));
        assertThat(hit.getMap("timings")).containsKey("embedQuery");
        assertThat(cacheGets("hit") - hitsBefore).isEqualTo(1.0);
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("cache_size{cache=\"" + QueryVectors.CACHE + "\""));
    }

    /**
     * Issue 72: fused with the vector retriever's copy of the collection held in memory, BM25 brings back only its hits'
     * ids and scores, and their chunks come from the copy ({@code cache.bm25} "hit"), the same chunks OpenSearch holds;
     * a chunk the copy lacks (here one only OpenSearch has, as while Neo4j's sink is behind) is read from OpenSearch
     * ("miss"). Either way each hit is what BM25 mode, which reads its hits' text from OpenSearch, answers.
     */
    @Test
    void fusedBm25HitsTakeTheirChunksFromTheHeldCopyAndTheRestFromOpenSearch() {
        String collection = "bm25-held-" + System.nanoTime();
        Neo4jGraphStore graph = new Neo4jGraphStore(driver);
        List<IndexedChunk> chunks = new ArrayList<>();
        for (IndexedChunk chunk : dev.openrag.query.SearchFixture.chunks(embedder)) {
            IndexedChunk copy = new IndexedChunk(collection, chunk.documentId(), collection + "/" + chunk.documentId() + "#0", 0,
                    chunk.title(), chunk.sourceUri(), List.of("Guide", chunk.title()), chunk.text(), chunk.context(), chunk.vector());
            graph.upsertDocument(collection, copy.documentId(), copy.title(), copy.sourceUri(), "h", List.of(copy), List.of());
            chunks.add(copy);
        }
        String onlyText = "Tomato seedlings want warm soil before they go out.";
        chunks.add(new IndexedChunk(collection, "doc-lagging", collection + "/doc-lagging#0", 0, "Seedlings", "file:///seedlings",
                List.of(), onlyText, "Document: Seedlings", embedder.embed(List.of(onlyText)).get(0)));
        new OpenSearchLexicalIndex(openSearch, true).upsert(chunks);

        Map<String, Object> held = Map.of("query", "scheduler worker threads", "k", 5, "collection", collection, "explain", true);
        // the copy is read in the background after the first search; until then BM25 reads its hits' text itself (no
        // cache.bm25), and while this search's read of the collection's version is slow it reads them too ("miss")
        JsonPath fused = post(held).statusCode(200).extract().jsonPath();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!"hit".equals(fused.getString("cache.bm25")) && System.nanoTime() < deadline) {
            assertSameChunksAsBm25Mode(fused, held);
            Thread.onSpinWait();
            fused = post(held).statusCode(200).extract().jsonPath();
        }
        assertThat(fused.getString("cache.bm25")).isEqualTo("hit");
        assertSameChunksAsBm25Mode(fused, held);

        Map<String, Object> lagging = Map.of("query", "tomato seedlings sun", "k", 5, "collection", collection, "explain", true);
        JsonPath withLagging = post(lagging).statusCode(200).extract().jsonPath();
        assertThat(withLagging.getString("cache.bm25")).isEqualTo("miss");
        assertThat(withLagging.getList("results.documentId")).contains("doc-lagging", "doc-2");
        assertSameChunksAsBm25Mode(withLagging, lagging);
    }

    /** Each of the fused answer's BM25 hits is, field by field, the chunk BM25 mode answers with. */
    private void assertSameChunksAsBm25Mode(JsonPath fused, Map<String, Object> search) {
        Map<String, Object> bm25Only = new java.util.HashMap<>(search);
        bm25Only.put("mode", "bm25");
        JsonPath lexical = post(bm25Only).statusCode(200).extract().jsonPath();
        List<Map<String, Object>> expected = lexical.getList("results");
        List<Map<String, Object>> found = fused.getList("results");
        assertThat(found.stream().filter(hit -> ((Map<?, ?>) hit.get("ranks")).containsKey("bm25"))).isNotEmpty();
        for (Map<String, Object> hit : found) {
            if (!((Map<?, ?>) hit.get("ranks")).containsKey("bm25")) {
                continue;
            }
            Map<String, Object> same = expected.stream().filter(e -> e.get("chunkId").equals(hit.get("chunkId"))).findFirst().orElseThrow();
            for (String field : List.of("documentId", "chunkIndex", "title", "sourceUri", "text", "context", "spans")) {
                assertThat(hit.get(field)).as(hit.get("chunkId") + " " + field).isEqualTo(same.get(field));
            }
        }
    }

    @Inject
    InMemorySpanExporter spans;

    /** The span of that name in the trace, once it has ended. */
    private SpanData finishedSpan(String traceId, String name) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            java.util.Optional<SpanData> span = spans.getFinishedSpanItems().stream()
                    .filter(data -> data.getTraceId().equals(traceId) && data.getName().equals(name)).findFirst();
            if (span.isPresent() || System.nanoTime() > deadline) {
                return span.orElseThrow(() -> new AssertionError("no span " + name + " in trace " + traceId));
            }
            Thread.onSpinWait();
        }
    }

    /** {@code cache_gets_total{cache="query-vectors",result=...}} as /q/metrics shows it now. */
    private static double cacheGets(String result) {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        java.util.regex.Matcher line = java.util.regex.Pattern.compile("(?m)^cache_gets_total\\{cache=\"" + QueryVectors.CACHE
                + "\",result=\"" + result + "\"} (\\S+)$").matcher(metrics);
        assertThat(line.find()).as(metrics).isTrue();
        return Double.parseDouble(line.group(1));
    }

    /**
     * Issue 72: the memories step is skipped while the searched scopes hold no pinned memory or correction, and a pinned
     * memory or correction written to Neo4j by any way in (here the store itself, as another app instance would) is
     * injected into the very next search.
     */
    @Test
    void theMemoriesStepIsSkippedUntilTheScopeHoldsAPinnedMemoryOrCorrection() {
        MemoryStore memories = new Neo4jMemoryStore(driver);
        long now = System.currentTimeMillis();
        String scope = "skip-test-" + now;
        Map<String, Object> search = Map.of("query", "garden courtyard shade", "collection", COLLECTION, "k", 1,
                "scopes", List.of(scope), "explain", true);
        String none = "no pinned memory or correction in the searched scopes";

        String trace = Long.toHexString(now) + "0000000000000000".substring(Long.toHexString(now).length()) + "0123456789abcdef";
        given().contentType(ContentType.JSON).header("traceparent", "00-" + trace + "-00f067aa0ba902b7-01").body(search)
                .post("/api/search").then().statusCode(200).body("skipped.memories", equalTo(none)).body("memories", empty());
        assertThat(finishedSpan(trace, "search.memories").getAttributes().get(SearchService.SKIPPED)).isEqualTo(none);
        assertThat(finishedSpan(trace, "search.embedQuery").getAttributes().get(SearchService.CACHE_HIT)).isNotNull();
        memories.add(new Memory("skip-unpinned-" + now, scope, "The garden is in a shady courtyard", List.of(), false, now, now,
                null, null, null, List.of(), List.of()), embedder.embed(List.of("The garden is in a shady courtyard")).get(0));
        post(search).statusCode(200).body("skipped.memories", equalTo(none));

        memories.add(new Memory("skip-pinned-" + now, scope, "The garden is in a shady courtyard", List.of(), true, now, now,
                null, null, null, List.of(), List.of()), embedder.embed(List.of("The garden is in a shady courtyard")).get(0));
        post(search).statusCode(200).body("skipped", nullValue()).body("memories.id", hasItem("skip-pinned-" + now));

        String corrected = scope + "-corrections";
        Map<String, Object> searchCorrected = Map.of("query", "How many hours of sunlight do tomato plants need?",
                "collection", COLLECTION, "k", 1, "scopes", List.of(corrected), "explain", true);
        post(searchCorrected).statusCode(200).body("skipped.memories", equalTo(none));
        new dev.openrag.knowledge.neo4j.Neo4jCorrectionStore(driver).add(new Correction("skip-corr-" + now, corrected, "Tomatoes need eight hours of sun, not six.",
                "how many hours of sun do tomatoes need?", null, null, now, null),
                embedder.embedQuery("how many hours of sun do tomatoes need?"));
        post(searchCorrected).statusCode(200).body("skipped", nullValue()).body("corrections.id", hasItem("skip-corr-" + now));
    }

    @Test
    void graphModeFindsChunksMentioningEntitiesNamedInTheQueryAndAnswersPlainQuestions() {
        given().contentType(ContentType.JSON)
                .body(Map.of("query", "what is a consumer group?", "collection", COLLECTION, "mode", "graph", "maxHops", 0))
                .post("/api/search").then().statusCode(200)
                .body("results[0].documentId", equalTo("doc-3"))
                .body("results[0].ranks.graph", equalTo(1));
        // nothing in the query names an entity: the graph is seeded by the chunks most similar to it
        given().contentType(ContentType.JSON)
                .body(Map.of("query", "tomato watering", "collection", COLLECTION, "mode", "graph")).post("/api/search")
                .then().statusCode(200).body("results[0].text", containsString("Tomatoes"));
    }

    @Test
    void feedbackReordersResultsForSimilarQueriesAndNeverRemovesOne() {
        // a collection of its own, so these verdicts touch no other test's chunks
        String collection = "feedback-fixture";
        List<String> texts = List.of("Invoices can be paid by card or by bank transfer.",
                "Invoices are due within thirty days of the invoice date.",
                "Refunds for paid invoices take five working days.");
        List<IndexedChunk> chunks = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            chunks.add(new IndexedChunk(collection, "inv-" + i, collection + "/inv-" + i + "#0", 0, "Billing " + i, "file:///inv-" + i,
                    List.of(), texts.get(i), "Document: Billing FAQ", embedder.embed(List.of("Document: Billing FAQ\n\n" + texts.get(i))).get(0)));
        }
        Neo4jGraphStore graph = new Neo4jGraphStore(driver);
        chunks.forEach(chunk -> graph.upsertDocument(collection, chunk.documentId(), chunk.title(), chunk.sourceUri(), "h", List.of(chunk), List.of()));
        new OpenSearchLexicalIndex(openSearch, true).upsert(chunks);

        Map<String, Object> search = Map.of("query", "how can I pay an invoice?", "collection", collection, "k", 3, "explain", true);
        List<String> before = post(search).statusCode(200)
                .extract().path("results.chunkId");
        String second = before.get(1);
        String first = before.get(0);
        // verdicts on a paraphrase of the query: the second result helped, the first did not
        for (String chunkId : List.of(second, second)) {
            given().contentType(ContentType.JSON).body(Map.of("query", "How do I pay my invoice?", "chunkId", chunkId, "helpful", true))
                    .post("/api/feedback").then().statusCode(201).body("id", notNullValue());
        }
        given().contentType(ContentType.JSON).body(Map.of("query", "How do I pay my invoice?", "chunkId", first, "helpful", false,
                "comment", "talks about due dates")).post("/api/feedback").then().statusCode(201);

        JsonPath after = post(search)
                .statusCode(200).extract().jsonPath();
        List<String> reordered = after.getList("results.chunkId");
        assertThat(reordered).as("same results, new order").containsExactlyInAnyOrderElementsOf(before);
        assertThat(reordered.indexOf(second)).isLessThan(reordered.indexOf(first));
        assertThat(after.getDouble("results.find { it.chunkId == '" + second + "' }.feedback")).isGreaterThan(1.0);
        assertThat(after.getDouble("results.find { it.chunkId == '" + first + "' }.feedback")).isLessThan(1.0);

        // an unrelated query is not affected
        post(Map.of("query", "refund duration", "collection", collection, "k", 3, "explain", true)).statusCode(200).body("results.feedback", everyItem(nullValue()));

        given().contentType(ContentType.JSON).body(Map.of("query", "x", "chunkId", first)).post("/api/feedback").then().statusCode(400)
                .body("message", containsString("'helpful' is required"));
        given().contentType(ContentType.JSON).body(Map.of("query", "x", "chunkId", "nope#0", "helpful", true)).post("/api/feedback")
                .then().statusCode(404).body("message", containsString("no chunk 'nope#0'"));
    }

    @Test
    void theRerankerLiftsTheChunkThatDefinesTheNamedFunctionAndExplainsItsScore() {
        JsonPath reranked = post(Map.of("query", "what does parse_http_header return",
                "k", 3, "collection", COLLECTION, "mode", "vector", "rerank", true, "explain", true)).statusCode(200).extract().jsonPath();
        assertThat(reranked.getString("results[0].documentId")).isEqualTo("doc-0");
        assertThat(reranked.getDouble("results[0].scores.rerank")).isEqualTo(1.0);
        assertThat(reranked.getDouble("results[1].scores.rerank")).isEqualTo(0.0);
        // score = fused score / the best fused score (rank 1: 1/(k+1), k = openrag.search.rrf-k = 20) + 0.3 × rerank score
        double rrfFirst = 1.0 / (20 + reranked.getInt("results[0].ranks.vector"));
        double rrfSecond = 1.0 / (20 + reranked.getInt("results[1].ranks.vector"));
        assertThat(reranked.getDouble("results[0].score")).isCloseTo(rrfFirst * 21 + 0.3, org.assertj.core.api.Assertions.within(1e-6));
        assertThat(reranked.getDouble("results[1].score")).isCloseTo(rrfSecond * 21, org.assertj.core.api.Assertions.within(1e-6));
        assertThat(reranked.getMap("timings")).containsKey("rerank");

        JsonPath plain = post(Map.of("query", "what does parse_http_header return",
                "k", 3, "collection", COLLECTION, "mode", "vector", "rerank", false, "explain", true)).statusCode(200).extract().jsonPath();
        assertThat(plain.getMap("results[0].scores")).doesNotContainKey("rerank");
        assertThat(plain.getMap("timings")).doesNotContainKey("rerank");
    }

    @Test
    void hybridsSecondStageLiftsEachDocumentsHeadByItsDocumentsBestScore() {
        // every fixture document is one chunk, its head: each head gets its own score over the best
        JsonPath lifted = post(Map.of("query", "http header parsing",
                "k", 4, "collection", COLLECTION, "mode", "hybrid", "explain", true)).statusCode(200).extract().jsonPath();
        assertThat(lifted.getDouble("results[0].scores.head")).isEqualTo(1.0);
        assertThat(lifted.getDouble("results[0].score")).isCloseTo(1.0 + 0.3, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(lifted.getList("results.scores.head", Double.class)).hasSize(4).allSatisfy(head -> assertThat(head).isBetween(0.0, 1.0));
        assertThat(lifted.getMap("timings")).containsKey("headPrior");
        JsonPath liftedMore = post(Map.of("query", "http header parsing", "k", 4, "collection", COLLECTION, "mode", "hybrid",
                "explain", true, "headPrior", 0.6)).statusCode(200).extract().jsonPath();
        assertThat(liftedMore.getDouble("results[0].score")).as("the request's head prior")
                .isCloseTo(1.0 + 0.6, org.assertj.core.api.Assertions.within(1e-9));

        JsonPath plain = post(Map.of("query", "http header parsing",
                "k", 4, "collection", COLLECTION, "mode", "hybrid", "rerank", false, "explain", true)).statusCode(200).extract().jsonPath();
        assertThat(plain.getMap("results[0].scores")).doesNotContainKey("head");
        assertThat(plain.getMap("timings")).doesNotContainKey("headPrior");
    }

    @Test
    void aRequestSetsTheFusionsKAndWeights() {
        JsonPath even = post(Map.of("query", "which consumers share topic partitions", "k", 4, "collection", COLLECTION,
                "rerank", false, "expand", 0, "explain", true)).statusCode(200).extract().jsonPath();
        JsonPath bm25Only = post(Map.of("query", "which consumers share topic partitions", "k", 4, "collection", COLLECTION,
                "rerank", false, "expand", 0, "explain", true, "rrfK", 1, "weights", Map.of("vector", 0.0))).statusCode(200).extract().jsonPath();
        // with k=1 the first BM25 hit scores 1/(1+1); with the vector retriever weighed 0 nothing else adds to it
        assertThat(bm25Only.getDouble("results[0].score")).isCloseTo(0.5, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(bm25Only.getInt("results[0].ranks.bm25")).isEqualTo(1);
        assertThat(even.getDouble("results[0].score")).isLessThanOrEqualTo(2.0 / 21 + 1e-6); // the default k 20: at most 2/21
    }

    @Test
    void badRequestsNameTheProblem() {
        post(Map.of("query", "x", "rrfK", 0, "collection", COLLECTION)).statusCode(400).body("message", containsString("'rrfK' must be between 1 and 1000"));
        post(Map.of("query", "x", "weights", Map.of("colbert", 1.0), "collection", COLLECTION)).statusCode(400)
                .body("message", containsString("unknown retriever 'colbert'"));
        post(Map.of("query", "x", "weights", Map.of("bm25", -1.0), "collection", COLLECTION)).statusCode(400)
                .body("message", containsString("'weights.bm25' must be between 0 and 10"));
        post(Map.of("query", "x", "headPrior", -0.1, "collection", COLLECTION)).statusCode(400)
                .body("message", containsString("'headPrior' must be between 0 and 10"));
        post(Map.of("query", "x", "rerankWeight", 11, "collection", COLLECTION)).statusCode(400)
                .body("message", containsString("'rerankWeight' must be between 0 and 10"));
        post(Map.of("query", " ", "collection", COLLECTION)).statusCode(400).body("message", containsString("'query'"));
        // a field of the wrong type is named too (Quarkus alone answers these with an empty body)
        post(Map.of("query", "x", "k", "ten", "collection", COLLECTION)).statusCode(400).body("error", equalTo("invalid_json"))
                .body("message", containsString("field 'k' has the wrong type"));
        post(Map.of("query", "x", "weights", Map.of("bm25", "heavy"), "collection", COLLECTION)).statusCode(400)
                .body("message", containsString("field 'weights.bm25' has the wrong type"));
        post(Map.of("query", "x", "k", 0, "collection", COLLECTION)).statusCode(400).body("message", containsString("'k' must be between 1 and 100"));
        post(Map.of("query", "x", "k", 101, "collection", COLLECTION)).statusCode(400);
        post(Map.of("query", "x", "mode", "fuzzy", "collection", COLLECTION)).statusCode(400).body("message", containsString("unknown mode 'fuzzy'"));
        post(Map.of("query", "x", "mode", "summary", "collection", "never-ingested")).statusCode(400)
                .body("message", containsString("unknown collection 'never-ingested'"));
        post(Map.of("query", "x", "maxHops", 4, "collection", COLLECTION)).statusCode(400).body("message", containsString("'maxHops' must be between 0 and 3"));
        post(Map.of("query", "x", "candidates", 0, "collection", COLLECTION)).statusCode(400).body("message", containsString("'candidates'"));
        post(Map.of("query", "x", "candidates", 201, "collection", COLLECTION)).statusCode(400);
        post(Map.of("query", "x", "collection", "never-ingested")).statusCode(400).body("message", containsString("unknown collection 'never-ingested'"));
        post(Map.of("query", "x", "collection", "Bad Name")).statusCode(400).body("error", equalTo("bad_request"));
    }

    private static io.restassured.response.ValidatableResponse post(Map<String, Object> body) {
        return given().contentType(ContentType.JSON).body(body).post("/api/search").then();
    }
}
