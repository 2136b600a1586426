package dev.openrag.query.search;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.neo4j.Neo4jDocumentMetadata;
import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.localstack.test.AppSettings;
import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.schemas.GraphExtracted;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * Graph retrieval applies the filter to every way a chunk enters it, on real Neo4j: seeds by name,
 * seeds by similar entities (node seeds), the chunks an entity leads to and NEXT steps. Chunks that
 * only the graph reaches (their text is not about the query) in documents the filter leaves out
 * never come back; the kept documents' chunks do, by the same signal.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
// what is judged is which hits come back, not how fast (as FilterAcrossCollectionsTest, whose app this shares)
@WithTestResource(value = AppSettings.class, initArgs = @ResourceArg(name = "openrag.search.read-timeout", value = "PT30S"))
class GraphFilterTest {

    private static final String COLLECTION = "graph-filter";
    /** More entities close to the query than the node seeds take from the whole collection. */
    private static final int NOISE = 2 * 10 + 4;
    private static final String NEAR_QUERY = "how are failed invoice payments retried";
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
        String[] retries = {"InvoiceRetry", "PaymentRetry", "InvoicePaymentRetry", "RetryFailedInvoice", "FailedPaymentRetry",
                "InvoiceRetryPolicy"};
        for (int i = 0; i < NOISE; i++) {
            // left out by every filter below: its entity is near the query, its text is not, and its first chunk names Ledger
            document("noise-" + i, Map.of("team", "risk", "year", 2024, "path", "src/noise-" + i + ".md"),
                    List.of("Notes " + i + " with tables.", "Appendix " + i + " on the Ledger."),
                    retries[i % retries.length] + "Variant" + (char) ('A' + i));
        }
        // kept: entities far from the query (outside the collection's nearest), text about something else
        document("keep", Map.of("team", "payments", "year", 2026, "path", "docs/keep.md"),
                List.of("Month end closing checklist.", "Archive old statements in the Ledger after closing."), "SettlementCalendar");
        document("keep2", Map.of("team", "treasury", "year", 2027, "path", "docs/keep2.md"),
                List.of("Cash positions by currency.", "Treasury sign-off steps for the Ledger."), "CurrencyExposureReport");
        // a first node-seeded search runs cold (query plans, the node vector index's first read): warm it, whatever it answers
        given().contentType(ContentType.JSON).body(Map.of("query", NEAR_QUERY, "collection", COLLECTION, "mode", "graph",
                "graphNodeSeeds", 1.0, "filter", Map.of("team", "payments"))).post("/api/search");
        loaded = true;
    }

    /** A document of two chunks in NEXT order: the first mentions {@code entity}, the second the Ledger every document shares. */
    private void document(String documentId, Map<String, Object> metadata, List<String> texts, String entity) {
        List<float[]> vectors = embedder.embed(texts);
        List<IndexedChunk> chunks = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            chunks.add(new IndexedChunk(COLLECTION, documentId, COLLECTION + "/" + documentId + "#" + i, i, "Doc " + documentId,
                    "file:///" + documentId, List.of(), texts.get(i), "Document: Doc " + documentId, vectors.get(i), metadata));
        }
        Neo4jGraphStore graph = new Neo4jGraphStore(driver);
        graph.upsertDocument(COLLECTION, documentId, "Doc " + documentId, "file:///" + documentId, "h", chunks, List.of());
        new Neo4jDocumentMetadata(driver).replaceMetadata(COLLECTION, documentId, metadata);
        new OpenSearchLexicalIndex(openSearch, true).upsert(chunks);
        String id = "symbol:" + entity.toLowerCase(java.util.Locale.ROOT);
        GraphExtracted extracted = new GraphExtracted(1, "e-" + documentId, documentId, "job", COLLECTION,
                List.of(new GraphExtracted.Entity(id, entity, "symbol"), new GraphExtracted.Entity("concept:ledger", "Ledger", "concept")),
                List.of(), List.of(new GraphExtracted.Mention(COLLECTION + "/" + documentId + "#0", id),
                new GraphExtracted.Mention(COLLECTION + "/" + documentId + "#1", "concept:ledger")), null);
        graph.upsertGraph(extracted);
        graph.embedGraphNodes(extracted, embedder);
    }

    private static JsonPath graph(String query, Object filter, double nodeSeeds) {
        Map<String, Object> body = new HashMap<>(Map.of("query", query, "k", 50, "collection", COLLECTION, "mode", "graph",
                "graphNodeSeeds", nodeSeeds, "explain", true, "rerank", false));
        if (filter != null) {
            body.put("filter", filter);
        }
        return given().contentType(ContentType.JSON).body(body).post("/api/search").then().statusCode(200).extract().jsonPath();
    }

    private static Set<String> documents(JsonPath found) {
        return Set.copyOf(found.getList("results.documentId", String.class));
    }

    /**
     * Node seeds: unfiltered, the collection's entities nearest to the query are the noise's, and their chunks come
     * back by them alone; filtered, the seeds are the kept documents' own entities (the collection's nearest would
     * all be left out), so a kept chunk is reached by its entity, and no left-out chunk is.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"team\": \"payments\"}                                          | keep",
            "{\"or\": [{\"team\": \"payments\"}, {\"team\": \"treasury\"}]}   | keep keep2",
            "{\"team\": {\"not\": \"risk\"}}                                    | keep keep2",
            "{\"year\": {\"gte\": 2026}}                                         | keep keep2",
            "{\"path\": {\"prefix\": \"docs/\"}}                                 | keep keep2",
            "{\"and\": [{\"path\": {\"prefix\": \"docs/\"}}, {\"year\": {\"lt\": 2027}}, {\"team\": {\"in\": [\"payments\", \"risk\"]}}]} | keep"})
    void similarNodesSeedOnlyFromTheDocumentsTheFilterKeeps(String filterJson, String keptDocuments) {
        JsonPath whole = graph(NEAR_QUERY, null, 1.0);
        assertThat(whole.getList("results.findAll { it.documentId.startsWith('noise-') && it.scores['graph.similarNode'] != null }"))
                .as("the control: unfiltered, entities near the query seed the noise's chunks").isNotEmpty();
        assertThat(whole.getString("results.find { it.chunkId == '" + COLLECTION + "/keep#0' }.scores['graph.similarNode']"))
                .as("the control: the kept document's entity is not among the collection's nearest").isNull();

        Object filter = JsonPath.from("{\"f\": " + filterJson + "}").get("f");
        JsonPath filtered = graph(NEAR_QUERY, filter, 1.0);
        Set<String> expected = Set.of(keptDocuments.split(" "));
        assertThat(documents(filtered)).as(filterJson).isEqualTo(expected);
        for (String kept : expected) {
            assertThat(filtered.getMap("results.find { it.chunkId == '" + COLLECTION + "/" + kept + "#0' }.scores"))
                    .as(kept + " with " + filterJson).containsKey("graph.similarNode");
        }
    }

    /**
     * Seeds by name and the steps from them: every document's second chunk mentions the Ledger, its first chunk is
     * one NEXT step away. Filtered, neither the name nor a step from it reaches a left-out document.
     */
    @Test
    void namedEntitiesAndNextStepsStayInTheKeptDocuments() {
        JsonPath whole = graph("ledger", null, 0);
        assertThat(whole.getString("results.find { it.chunkId == '" + COLLECTION + "/noise-0#1' }.scores['graph.name']"))
                .as("the control: unfiltered, the name reaches the noise").isNotNull();
        assertThat(whole.getString("results.find { it.chunkId == '" + COLLECTION + "/noise-0#0' }.scores['graph.next']")).isNotNull();

        for (Object filter : List.<Object>of(Map.of("team", "payments"), Map.of("path", Map.of("prefix", "docs/keep.")),
                Map.of("or", List.of(Map.of("year", Map.of("gt", 2025, "lte", 2026)), Map.of("owner", Map.of("exists", true)))))) {
            JsonPath filtered = graph("ledger", filter, 0);
            assertThat(documents(filtered)).as(filter.toString()).containsExactly("keep");
            assertThat(filtered.getMap("results.find { it.chunkId == '" + COLLECTION + "/keep#1' }.scores")).containsKey("graph.name");
            // its neighbour is there too (as a seed by similarity of its own: with so few kept chunks, every one is a seed)
            assertThat(filtered.getList("results.chunkId", String.class)).contains(COLLECTION + "/keep#0");
        }
    }

    /** Filters that keep nothing here: no chunk, whichever way it would enter; malformed ones are a 400 as in every mode. */
    @Test
    void aFilterThatKeepsNothingLetsNoGraphHitThrough() {
        for (Object filter : List.<Object>of(Map.of("team", "nobody"), Map.of("teem", "payments"),
                Map.of("and", List.of(Map.of("team", "payments"), Map.of("team", "treasury"))),
                Map.of("year", Map.of("gte", "2026-01-01")))) {
            assertThat(graph(NEAR_QUERY, filter, 1.0).getList("results")).as(filter.toString()).isEmpty();
            assertThat(graph("ledger", filter, 0).getList("results")).as(filter.toString()).isEmpty();
        }
        for (String bad : List.of("{\"team\": {\"in\": []}}", "{\"or\": []}", "{\"team\": {\"prefix\": \"\"}}", "{\"and\": {}}")) {
            Map<String, Object> body = new HashMap<>(Map.of("query", "ledger", "collection", COLLECTION, "mode", "graph"));
            body.put("filter", JsonPath.from("{\"f\": " + bad + "}").get("f"));
            given().contentType(ContentType.JSON).body(body).post("/api/search").then().statusCode(400)
                    .contentType(ContentType.JSON).body("message", org.hamcrest.Matchers.containsString("filter"));
        }
        // the control: the kept document still answers
        assertThat(documents(graph("ledger", Map.of("team", "payments"), 0))).containsExactly("keep");
    }
}
