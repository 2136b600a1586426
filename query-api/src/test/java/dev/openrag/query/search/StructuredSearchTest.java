package dev.openrag.query.search;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.summary.ExtractiveSummarizer;
import dev.openrag.knowledge.summary.SectionSummaries;
import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.schemas.ApiGraph;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.GraphExtracted;
import dev.openrag.schemas.SectionSummary;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/** The summary-aware modes, automatic routing and graph search over an OpenAPI operation, on real Neo4j and OpenSearch. */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class StructuredSearchTest {

    private static final String COLLECTION = "structured";
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
        document("orchard", "Orchard handbook", List.of(
                new String[] {"Pruning", "Prune apple trees in late winter, before the buds open. Cut crossing branches first."},
                new String[] {"Pruning", "Use sharp bypass secateurs and a saw for thick wood."},
                new String[] {"Harvest", "Apples are picked from September and stored in a cool, dark shed."}));
        document("kafka", "Kafka notes", List.of(
                new String[] {"Consumers", "Consumers in one group share the partitions of a topic."},
                new String[] {"Retention", "Old log segments are deleted after the retention period."}));
        document("garden-api", "Garden Irrigation API", List.<String[]>of(
                new String[] {null, "POST /beds/{bedId}/watering — Start watering a bed\nOperation id: startWatering\n"
                        + "Example request: {\"durationMinutes\":10}"}));
        String op = "op:POST /beds/{bedId}/watering";
        new Neo4jGraphStore(driver).upsertGraph(new GraphExtracted(1, "e", "garden-api", "job", COLLECTION,
                List.of(new GraphExtracted.Entity("schema:wateringrequest", "WateringRequest", "schema")), List.of(),
                List.of(new GraphExtracted.Mention(COLLECTION + "/garden-api#0", "schema:wateringrequest")),
                new ApiGraph("Garden Irrigation API", "2.1.0", List.of(
                        new ApiGraph.Node("api", ApiGraph.API, "Garden Irrigation API", ApiGraph.API, Map.of()),
                        new ApiGraph.Node(op, ApiGraph.OPERATION, "startWatering", ApiGraph.OPERATION, Map.of("method", "POST",
                                "path", "/beds/{bedId}/watering", "operationId", "startWatering", "summary", "Start watering a bed")),
                        new ApiGraph.Node("example:x", ApiGraph.EXAMPLE, "request example", ApiGraph.EXAMPLE,
                                Map.of("mediaType", "application/json", "value", "{\"durationMinutes\":10}")),
                        new ApiGraph.Node("schema:wateringrequest", ApiGraph.ENTITY, "WateringRequest", "schema", Map.of())),
                        List.of(new ApiGraph.Edge("api", op, "HAS_OPERATION"), new ApiGraph.Edge(op, "example:x", "HAS_EXAMPLE"),
                                new ApiGraph.Edge(op, "schema:wateringrequest", "RELATES_TO")),
                        List.of(new ApiGraph.ChunkLink(0, op)))));
        // each mode's first search runs cold (query plans, indexes' first reads) and on a busy 2-core machine may pass the
        // search's 2 s read timeout (503): these tests are about what the modes return, so warm them, whatever they answer
        for (String mode : List.of("graph", "hybrid", "summary")) {
            given().contentType(ContentType.JSON).body(Map.of("query", "watering the orchard", "k", 5, "collection", COLLECTION,
                    "mode", mode)).post("/api/search").then().statusCode(org.hamcrest.Matchers.oneOf(200, 503));
        }
        loaded = true;
    }

    /** Writes a document the way the sinks do: chunks with contexts and vectors, and its section summaries. */
    private void document(String documentId, String title, List<String[]> sectionsAndTexts) {
        document(COLLECTION, documentId, title, sectionsAndTexts);
    }

    private void document(String collection, String documentId, String title, List<String[]> sectionsAndTexts) {
        List<Chunk> chunks = new ArrayList<>();
        for (int i = 0; i < sectionsAndTexts.size(); i++) {
            String[] row = sectionsAndTexts.get(i);
            chunks.add(new Chunk(collection + "/" + documentId + "#" + i, i, row[1], row[0] == null ? List.of() : List.of(row[0]),
                    0, 0, "Document: " + title, null));
        }
        List<SectionSummary> summaries = SectionSummaries.of(title, chunks, new ExtractiveSummarizer()).stream()
                .map(s -> new SectionSummary(s.headingPath(), s.title(), s.summary(), embedder.embed(List.of(s.summary())).get(0)))
                .toList();
        List<IndexedChunk> indexed = chunks.stream().map(c -> new IndexedChunk(collection, documentId, c.chunkId(), c.index(), title,
                "file:///" + documentId, c.headingPath(), c.text(), c.context(),
                embedder.embed(List.of(c.context() + "\n\n" + c.text())).get(0))).toList();
        new Neo4jGraphStore(driver).upsertDocument(collection, documentId, title, "file:///" + documentId, "h", indexed, summaries);
        new OpenSearchLexicalIndex(openSearch, true).upsert(indexed);
    }

    /** Without the reranker, so each mode's own scores show (the reranker has its own test). */
    private static JsonPath search(String query, String mode) {
        return given().contentType(ContentType.JSON)
                .body(Map.of("query", query, "k", 5, "collection", COLLECTION, "mode", mode, "explain", true, "rerank", false))
                .post("/api/search").then().statusCode(200).extract().jsonPath();
    }

    @Test
    void summaryModeReturnsTheBestChunksOfTheSectionsWhoseSummariesMatch() {
        JsonPath found = search("when and how should fruit trees be cut back", "summary");

        assertThat(found.getString("mode")).isEqualTo("summary");
        assertThat(found.getString("results[0].chunkId")).startsWith(COLLECTION + "/orchard#");
        assertThat(found.getList("results.documentId", String.class).subList(0, 2)).containsOnly("orchard");
        assertThat(found.getInt("results[0].ranks.summary")).isEqualTo(1);
    }

    @Test
    void hybridExpandedAddsTheWeightedSummarySimilarityToTheNormalisedFusedScore() {
        JsonPath found = search("apple tree pruning", "hybrid_expanded");

        assertThat(found.getString("results[0].documentId")).isEqualTo("orchard");
        List<Map<String, Object>> results = found.getList("results");
        double best = 0;
        List<Double> fused = new ArrayList<>();
        for (Map<String, Object> result : results) {
            @SuppressWarnings("unchecked")
            Map<String, Integer> ranks = (Map<String, Integer>) result.get("ranks");
            double rrf = ranks.values().stream().mapToDouble(rank -> 1.0 / (20 + rank)).sum(); // openrag.search.rrf-k
            fused.add(rrf);
            best = Math.max(best, rrf);
        }
        for (int i = 0; i < results.size(); i++) {
            @SuppressWarnings("unchecked")
            Map<String, Number> scores = (Map<String, Number>) results.get(i).get("scores");
            assertThat(scores).containsKey("summary");
            double expected = fused.get(i) / best + 0.3 * Math.max(0, scores.get("summary").doubleValue());
            assertThat(((Number) results.get(i).get("score")).doubleValue()).isCloseTo(expected, within(1e-6));
        }
        assertThat(found.getMap("timings")).containsKey("summary");
    }

    @Test
    void automaticChoosesByTheFormOfTheQueryAndSaysWhyInExplain() {
        JsonPath identifiers = search("startWatering bedId durationMinutes", "automatic");
        assertThat(identifiers.getString("mode")).isEqualTo("automatic");
        assertThat(identifiers.getString("route.mode")).isEqualTo("hybrid");
        assertThat(identifiers.getDouble("route.weights.bm25")).isEqualTo(1.5);
        assertThat(identifiers.getString("route.reason")).contains("3 of 3 words are identifiers");

        JsonPath overview = search("give me an overview of the orchard handbook", "automatic");
        assertThat(overview.getString("route.mode")).isEqualTo("summary");
        assertThat(overview.getString("results[0].documentId")).isEqualTo("orchard");
        assertThat(overview.getMap("results[0].ranks")).containsOnlyKeys("summary");

        JsonPath question = search("how long are kafka log segments kept", "automatic");
        assertThat(question.getString("route.mode")).isEqualTo("hybrid_expanded");
        assertThat(question.getMap("results[0].scores")).containsKey("summary");
        assertThat(question.getMap("route")).doesNotContainKey("weights");
        assertThat(question.getString("results[0].documentId")).isEqualTo("kafka");
    }

    @Test
    void graphModeReturnsTheOperationWithItsExamplesAndRelatedEntities() {
        JsonPath byOperationId = search("startWatering", "graph");
        assertThat(byOperationId.getString("results[0].documentId")).isEqualTo("garden-api");
        assertThat(byOperationId.getString("results[0].operation.method")).isEqualTo("POST");
        assertThat(byOperationId.getString("results[0].operation.path")).isEqualTo("/beds/{bedId}/watering");
        assertThat(byOperationId.getString("results[0].operation.api")).isEqualTo("Garden Irrigation API");
        assertThat(byOperationId.getString("results[0].operation.examples[0].value")).isEqualTo("{\"durationMinutes\":10}");
        assertThat(byOperationId.getList("results[0].operation.entities", String.class)).containsExactly("WateringRequest");
        Map<String, Number> why = byOperationId.getMap("results[0].scores");
        assertThat(why).as("explain names the signals behind the graph score").containsKeys("graph", "graph.name");
        assertThat(why.entrySet().stream().filter(e -> e.getKey().startsWith("graph.")).mapToDouble(e -> e.getValue().doubleValue()).sum())
                .as("the signals add up to the score").isCloseTo(why.get("graph").doubleValue(), within(1e-4));

        JsonPath bySchema = search("what does a WateringRequest contain", "graph");
        assertThat(bySchema.getString("results[0].operation.operationId")).isEqualTo("startWatering");

        JsonPath hybrid = search("startWatering", "hybrid");
        assertThat(hybrid.getMap("results[0]")).as("operations are graph mode's").doesNotContainKey("operation");
    }

    @Test
    void graphModeAnswersPlainQuestionsThatNameNoEntity() {
        // no entity or operation is named: the graph is seeded by the chunks most similar to the question
        JsonPath watering = search("how do I water a greenhouse bed for a few minutes", "graph");
        assertThat(watering.getList("results.documentId", String.class)).as("graph mode answers a plain question").isNotEmpty();
        assertThat(watering.getString("results[0].documentId")).isEqualTo("garden-api");
        assertThat(watering.getString("results[0].operation.operationId")).isEqualTo("startWatering");
        assertThat(watering.getMap("results[0].scores")).as("a seed by similarity, not by name")
                .containsKey("graph.similarChunk").doesNotContainKey("graph.name");

        JsonPath pruning = search("when should I cut back my fruit trees", "graph");
        assertThat(pruning.getString("results[0].documentId")).isEqualTo("orchard");
        assertThat(pruning.getString("results[0].text")).contains("Prune apple trees");

        // seeds come from the asked collection only: another collection's near-identical chunk is never one
        document("structured-other", "hoses", "Hose notes", List.<String[]>of(new String[] {null, "Water a greenhouse bed with a hose."}));
        JsonPath elsewhere = given().contentType(ContentType.JSON).body(Map.of("query", "how do I water a greenhouse bed for a few minutes",
                "mode", "graph", "collection", "structured-other")).post("/api/search").then().statusCode(200).extract().jsonPath();
        assertThat(elsewhere.getList("results.documentId", String.class)).containsOnly("hoses");
        assertThat(search("how do I water a greenhouse bed for a few minutes", "graph").getList("results.documentId", String.class))
                .doesNotContain("hoses");
    }

    /**
     * Entities and operations seed graph mode by their own similarity when asked: twelve notes are
     * nearer the question than the code or the bare operation chunk that answers it, so the nearest
     * chunks never reach those; only the entity's and the operation's words do.
     */
    @Test
    void graphModeSeedsByTheEntitiesAndOperationsSimilarToTheQuestionWithinTheAskedCollection() {
        String nodes = "structured-nodes";
        String other = "structured-nodes-other";
        for (int i = 0; i < 12; i++) {
            document(nodes, "note-" + i, "Glasshouse note " + i, List.<String[]>of(new String[] {null,
                    "Glasshouse diary, day " + i + ": the beds in the glasshouse were watered by hand in the morning."}));
        }
        document(nodes, "planner", "planner.rs", List.<String[]>of(new String[] {null,
                "impl GlasshouseWateringPlanner {\n    pub fn next_slot(&self, now: Instant) -> Slot { self.slots.after(now) }\n}"}));
        document(nodes, "lawn-api", "Lawn API", List.<String[]>of(new String[] {null, "PUT /v2/zones/{zoneId}/valve"}));
        document(other, "planner", "planner.rs", List.<String[]>of(new String[] {null,
                "impl GlasshouseWateringPlanner {\n    pub fn next_slot(&self) -> Slot { todo!() }\n}"}));
        String op = "op:PUT /v2/zones/{zoneId}/valve";
        List<GraphExtracted> graphs = List.of(
                graph(nodes, "planner", "symbol:glasshousewateringplanner", "GlasshouseWateringPlanner", null),
                graph(nodes, "lawn-api", "schema:valvestate", "ValveState", new ApiGraph("Lawn API", "1", List.of(
                        new ApiGraph.Node(op, ApiGraph.OPERATION, "openValve", ApiGraph.OPERATION, Map.of("method", "PUT",
                                "path", "/v2/zones/{zoneId}/valve", "operationId", "openValve",
                                "summary", "Switch the lawn sprinklers of a zone on"))),
                        List.of(), List.of(new ApiGraph.ChunkLink(0, op)))),
                graph(other, "planner", "symbol:glasshousewateringplanner", "GlasshouseWateringPlanner", null));
        Neo4jGraphStore store = new Neo4jGraphStore(driver);
        for (GraphExtracted graph : graphs) {
            store.upsertGraph(graph);
        }
        assertThat(graphs.stream().mapToInt(graph -> store.embedGraphNodes(graph, embedder)).sum())
                .as("two entities and an operation in one collection, one entity in the other").isEqualTo(4);
        assertThat(graphs.stream().mapToInt(graph -> store.embedGraphNodes(graph, embedder)).sum())
                .as("a node is embedded once").isZero();
        // a first node-seeded search runs cold (query plans, the node vector index's first read): on a busy 2-core
        // machine it can pass the search's 2 s read timeout, and mode=graph alone then answers 503 (seen once in a full
        // run). This test is about what the seeds reach, not about a cold start: warm the path first, whatever it answers.
        given().contentType(ContentType.JSON).body(Map.of("query", "glasshouse", "k", 5, "collection", nodes, "mode", "graph",
                "graphNodeSeeds", 1.0)).post("/api/search").then().statusCode(org.hamcrest.Matchers.oneOf(200, 503));

        String planning = "which component plans when the glasshouse gets watered";
        assertThat(nodeSeeded(nodes, planning, 0).getList("results.documentId", String.class))
                .as("without node seeds only the notes are reached").doesNotContain("planner", "lawn-api");
        JsonPath planner = nodeSeeded(nodes, planning, 1.0);
        assertThat(planner.getList("results.documentId", String.class)).contains("planner");
        assertThat(planner.getMap("results.find { it.documentId == 'planner' }.scores")).containsKeys("graph", "graph.similarNode")
                .doesNotContainKeys("graph.name", "graph.similarChunk", "graph.sharedEntity", "graph.next");
        assertThat(planner.getList("results.chunkId", String.class)).as("the entity's vector and words are the asked collection's")
                .allMatch(id -> id.startsWith(nodes + "/"));
        assertThat(nodeSeeded(other, planning, 1.0).getList("results.chunkId", String.class)).containsExactly(other + "/planner#0");

        JsonPath sprinklers = nodeSeeded(nodes, "how can I turn on the sprinklers on my lawn", 1.0);
        assertThat(sprinklers.getString("results[0].documentId")).isEqualTo("lawn-api");
        assertThat(sprinklers.getString("results[0].operation.operationId")).isEqualTo("openValve");

        for (Object bad : List.of(-1, 10.5)) {
            given().contentType(ContentType.JSON).body(Map.of("query", planning, "collection", nodes, "mode", "graph", "graphNodeSeeds", bad))
                    .post("/api/search").then().statusCode(400)
                    .body("message", org.hamcrest.Matchers.containsString("'graphNodeSeeds' must be between 0 and 10, got " + bad));
        }
        given().contentType(ContentType.JSON).body(Map.of("query", planning, "collection", nodes, "mode", "graph", "graphNodeSeeds", "many"))
                .post("/api/search").then().statusCode(400)
                .body("message", org.hamcrest.Matchers.startsWith("field 'graphNodeSeeds' has the wrong type"));
    }

    private static GraphExtracted graph(String collection, String documentId, String entityId, String entityName, ApiGraph api) {
        return new GraphExtracted(1, "e", documentId, "job", collection, List.of(new GraphExtracted.Entity(entityId, entityName, "symbol")),
                List.of(), List.of(new GraphExtracted.Mention(collection + "/" + documentId + "#0", entityId)), api);
    }

    private static JsonPath nodeSeeded(String collection, String query, double nodeSeeds) {
        return given().contentType(ContentType.JSON).body(Map.of("query", query, "k", 20, "collection", collection, "mode", "graph",
                "graphNodeSeeds", nodeSeeds, "explain", true)).post("/api/search").then().statusCode(200).extract().jsonPath();
    }

    @Test
    void theNeighbourhoodOfASchemaShowsTheOperationsAndExamples() {
        given().get("/api/graph/neighbourhood?collection=" + COLLECTION + "&entity=WateringRequest&hops=2").then().statusCode(200)
                .body("nodes.label", org.hamcrest.Matchers.hasItems("Entity", "Operation", "Example"))
                .body("edges.type", org.hamcrest.Matchers.hasItems("RELATES_TO", "HAS_EXAMPLE"));
    }
}
