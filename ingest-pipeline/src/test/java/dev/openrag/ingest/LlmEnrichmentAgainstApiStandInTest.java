package dev.openrag.ingest;

import static dev.openrag.ingest.IngestTestSupport.awaitJob;
import static dev.openrag.ingest.IngestTestSupport.textDocument;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

import dev.openrag.localstack.test.LlmApiStandIn;
import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * Per-collection enrichment settings and LLM usage through the real pipeline on real engines,
 * with the three LLM roles on hosted-provider APIs served by {@link LlmApiStandIn} (a STAND-IN: no
 * LLM is reachable here): contexts from "OpenAI", graph from "Anthropic", summaries from
 * "Gemini", through LangChain4j's real clients. The app's defaults stay offline, so only the
 * collection that asks for LLM enrichment gets (and pays for) it.
 */
@QuarkusTest
@QuarkusTestResource(value = LocalStackTestResource.class, restrictToAnnotatedClass = true)
@QuarkusTestResource(value = LlmEnrichmentAgainstApiStandInTest.StandIn.class, restrictToAnnotatedClass = true)
class LlmEnrichmentAgainstApiStandInTest {

    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(120);
    private static final String GRAPH_JSON = "{\"entities\":[{\"name\":\"Blue Harbor\",\"type\":\"product\"},"
            + "{\"name\":\"Release Manager\",\"type\":\"person\"}],"
            + "\"relations\":[{\"from\":\"Release Manager\",\"to\":\"Blue Harbor\",\"type\":\"ships\"}]}";

    /** One stand-in for the three APIs; chunks containing "NOJSON" get prose instead of JSON from the graph role. */
    public static class StandIn implements QuarkusTestResourceLifecycleManager {

        static LlmApiStandIn api;

        @Override
        public Map<String, String> start() {
            try {
                api = new LlmApiStandIn(0, request -> switch (request.api()) {
                    case "openai" -> {
                        if (request.user().contains("budget")) {
                            pause(200); // slow enough that the job's spend is known before its last documents
                        }
                        yield "Stand-in context: " + request.user().replaceAll("(?s).*<chunk>\\n(\\S+ \\S+).*", "$1");
                    }
                    case "anthropic" -> request.user().contains("NOJSON") ? "I would rather not." : GRAPH_JSON;
                    default -> "Stand-in summary of the section.";
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Map.ofEntries(
                    Map.entry("openrag.llm.contextualizer.provider", "openai"),
                    Map.entry("openrag.llm.contextualizer.base-url", api.url()),
                    Map.entry("openrag.llm.contextualizer.model", "stand-in"),
                    Map.entry("openrag.llm.graph-extractor.provider", "anthropic"),
                    Map.entry("openrag.llm.graph-extractor.base-url", api.url()),
                    Map.entry("openrag.llm.graph-extractor.api-key", "sk-ant-test"),
                    Map.entry("openrag.llm.graph-extractor.model", "stand-in"),
                    Map.entry("openrag.llm.summarizer.provider", "gemini"),
                    Map.entry("openrag.llm.summarizer.base-url", api.url()),
                    Map.entry("openrag.llm.summarizer.api-key", "g-test"),
                    Map.entry("openrag.llm.summarizer.model", "stand-in"),
                    Map.entry("openrag.llm.prices.\"stand-in\".input", "2.0"),
                    Map.entry("openrag.llm.prices.\"stand-in\".output", "10.0"),
                    Map.entry("openrag.collections.settings-refresh", "PT0.5S"));
        }

        @Override
        public void stop() {
            api.close();
        }

        private static void pause(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Inject
    Driver driver;

    private static final String MARKDOWN = """
            # Release guide
            How we ship **Blue Harbor** releases.

            ## Versioning
            Releases follow semantic versioning. The Release Manager tags every version.

            ## Rollback
            A rollback restores the previous version within ten minutes.
            """;

    private static JsonPath ingest(String collection, String uri, String text) {
        String jobId = given().contentType(ContentType.JSON).body(textDocument(collection, uri, "Release guide", text))
                .post("/api/documents").then().statusCode(202).extract().path("jobId");
        JsonPath job = awaitJob(jobId, JOB_TIMEOUT);
        assertThat(job.getString("state")).isEqualTo("completed");
        return job;
    }

    @Test
    void aCollectionSetToLlmGetsLlmContextsGraphAndSummariesWithTheirTokensAndCostOnTheJob() {
        given().contentType(ContentType.JSON)
                .body(Map.of("contextualizer", "llm", "graphExtractor", "llm", "summaries", "llm"))
                .put("/api/collections/llm-set/settings").then().statusCode(200)
                .body("contextualizer", equalTo("llm")).body("graphExtractor", equalTo("llm")).body("summaries", equalTo("llm"));
        given().get("/api/collections/llm-set/settings").then().statusCode(200).body("contextualizer", equalTo("llm"));
        given().get("/api/collections/offline-set/settings").then().statusCode(200)
                .body("contextualizer", equalTo("structural")).body("graphExtractor", equalTo("rules"))
                .body("summaries", equalTo("extractive"));
        int callsBefore = StandIn.api.calls.get();

        JsonPath offline = ingest("offline-set", "docs/offline.md", MARKDOWN);
        assertThat(offline.getMap("$")).doesNotContainKey("usage");
        assertThat(StandIn.api.calls.get()).as("the offline collection calls no LLM").isEqualTo(callsBefore);

        long inputBefore = StandIn.api.inputTokens.get();
        long outputBefore = StandIn.api.outputTokens.get();
        JsonPath job = ingest("llm-set", "docs/llm.md", MARKDOWN);

        assertThat(job.getList("warnings")).isEmpty();
        assertThat(job.getMap("usage.byModel")).containsOnlyKeys("openai:stand-in", "anthropic:stand-in", "gemini:stand-in");
        assertThat(job.getMap("usage.byStage")).containsOnlyKeys("contextualize", "extract-graph", "embed");
        assertThat(job.getLong("usage.byStage.contextualize.calls")).isEqualTo(job.getLong("stages.chunk.chunks"));
        long input = job.getLong("usage.inputTokens");
        long output = job.getLong("usage.outputTokens");
        assertThat(input).as("the tokens the stand-in counted").isEqualTo(StandIn.api.inputTokens.get() - inputBefore);
        assertThat(output).isEqualTo(StandIn.api.outputTokens.get() - outputBefore);
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).containsPattern("openrag_llm_tokens_total\\{[^}]*collection=\"llm-set\"[^}]*kind=\"input\"[^}]*model=\"openai:stand-in\"[^}]*stage=\"contextualize\"[^}]*} [1-9]");
        assertThat(job.getDouble("usage.cost")).isCloseTo((input * 2.0 + output * 10.0) / 1_000_000, org.assertj.core.data.Offset.offset(1e-9));
        try (var session = driver.session()) {
            List<String> contexts = session.run("MATCH (c:Chunk {collection: 'llm-set'}) RETURN c.context AS context")
                    .list(r -> r.get("context").asString());
            assertThat(contexts).isNotEmpty().allSatisfy(context -> assertThat(context).startsWith("Stand-in context: "));
            assertThat(session.run("""
                    MATCH (:Entity {name: 'Release Manager'})-[r:RELATED_TO]->(:Entity {name: 'Blue Harbor'})
                    WHERE r.type = 'ships' RETURN count(r) AS n""").single().get("n").asLong()).isPositive();
            assertThat(session.run("MATCH (s:Section {collection: 'llm-set'}) RETURN s.summary AS summary")
                    .list(r -> r.get("summary").asString())).contains("Stand-in summary of the section.");
        }
    }

    @Test
    void aChunkWhoseGraphJsonStaysInvalidKeepsTheRulesAndTheJobSaysSo() {
        given().contentType(ContentType.JSON).body(Map.of("graphExtractor", "llm"))
                .put("/api/collections/llm-badjson/settings").then().statusCode(200)
                .body("graphExtractor", equalTo("llm")).body("contextualizer", equalTo("structural"));

        JsonPath job = ingest("llm-badjson", "docs/nojson.md", "# Notes\nThe NOJSON paragraph names the Release Manager.\n");

        assertThat(job.getString("warnings[0].stage")).isEqualTo("extract-graph");
        assertThat(job.getString("warnings[0].message")).startsWith("1 of 1 chunks kept the rule-based graph")
                .contains("invalid JSON after one repair");
        assertThat(job.getLong("usage.byModel.'anthropic:stand-in'.calls")).as("the first answer and its repair").isEqualTo(2);
    }

    @Test
    void settingsThatCannotWorkAreRefusedWithTheReason() {
        given().contentType(ContentType.JSON).body(Map.of("contextualizer", "gpt"))
                .put("/api/collections/bad-settings/settings").then().statusCode(400)
                .body("message", containsString("field 'contextualizer' must be one of [structural, llm, none], not 'gpt'"));
        given().contentType(ContentType.JSON).body(Map.of("summaries", "llm", "models", Map.of("answer", Map.of("provider", "openai"))))
                .put("/api/collections/bad-settings/settings").then().statusCode(400)
                .body("message", containsString("unknown role 'answer'"));
        given().contentType(ContentType.JSON).body(Map.of("contextualizer", "llm", "models", Map.of("contextualizer", Map.of("provider", "watson"))))
                .put("/api/collections/bad-settings/settings").then().statusCode(400)
                .body("message", containsString("must be one of [ollama, openai, anthropic, gemini], not 'watson'"));
        given().contentType(ContentType.JSON).body(Map.of("contextualizer", "llm", "models", Map.of("contextualizer", Map.of("provider", "anthropic"))))
                .put("/api/collections/bad-settings/settings").then().statusCode(400)
                .body("message", containsString("provider anthropic needs an API key: set ANTHROPIC_API_KEY"));
        given().contentType(ContentType.JSON).body("{\"contextualizer\": ")
                .put("/api/collections/bad-settings/settings").then().statusCode(400);
        given().contentType(ContentType.JSON).body(Map.of("contextualizer", "llm"))
                .put("/api/collections/Bad Name!/settings").then().statusCode(400);
        given().get("/api/collections/bad-settings/settings").then().statusCode(200).body("contextualizer", equalTo("structural"));
    }

    @Test
    void aJobThatReachesItsCollectionsBudgetFinishesOnTheOfflineEnrichmentsWithWarnings() {
        given().contentType(ContentType.JSON)
                .body(Map.of("contextualizer", "llm", "budget", Map.of("maxTokens", 1)))
                .put("/api/collections/llm-budget/settings").then().statusCode(200)
                .body("budget.maxTokens", equalTo(1));
        var upload = given().multiPart("collection", "llm-budget");
        for (int i = 0; i < 6; i++) {
            upload.multiPart("files", "note-" + i + ".md", ("# Note " + i + "\nThe budget note number " + i + " is short.\n")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8), "text/markdown");
        }
        String jobId = upload.post("/api/documents").then().statusCode(202).extract().path("jobId");

        JsonPath job = awaitJob(jobId, JOB_TIMEOUT);

        assertThat(job.getString("state")).as("a budget never fails a document").isEqualTo("completed");
        assertThat(job.getInt("documents.done")).isEqualTo(6);
        List<String> budgetWarnings = job.getList("warnings.message", String.class).stream()
                .filter(message -> message.startsWith("job budget of 1 tokens reached")).toList();
        assertThat(budgetWarnings).as("later documents got structural contexts").isNotEmpty().hasSizeLessThan(6)
                .allSatisfy(message -> assertThat(message).endsWith("structural contexts instead of the LLM's"));
        try (var session = driver.session()) {
            List<String> contexts = session.run("MATCH (c:Chunk {collection: 'llm-budget'}) RETURN c.context AS context")
                    .list(r -> r.get("context").asString());
            assertThat(contexts).hasSize(6);
            assertThat(contexts.stream().filter(c -> c.startsWith("Stand-in context: ")).count())
                    .isEqualTo(6 - budgetWarnings.size());
        }
    }

    @Test
    void theEstimateCallsNoModelAndIsWithinTwentyPercentOfTheTokensTheProviderCounted() throws IOException {
        given().contentType(ContentType.JSON).body(Map.of("contextualizer", "llm", "graphExtractor", "llm", "summaries", "llm"))
                .put("/api/collections/llm-estimate/settings").then().statusCode(200);
        List<java.nio.file.Path> corpus = List.of(java.nio.file.Path.of("../docs/security.md"), java.nio.file.Path.of("README.md"),
                java.nio.file.Path.of("src/main/java/dev/openrag/ingest/enrich/Enrichments.java"));
        int callsBefore = StandIn.api.calls.get();

        var estimateRequest = given().multiPart("collection", "llm-estimate");
        corpus.forEach(file -> estimateRequest.multiPart("files", file.toFile()));
        JsonPath estimate = estimateRequest.post("/api/estimate").then().statusCode(200).extract().jsonPath();

        assertThat(StandIn.api.calls.get()).as("an estimate calls no model").isEqualTo(callsBefore);
        assertThat(estimate.getInt("documents")).isEqualTo(3);
        assertThat(estimate.getLong("tokensOut")).isPositive();

        var upload = given().multiPart("collection", "llm-estimate");
        corpus.forEach(file -> upload.multiPart("files", file.toFile()));
        String jobId = upload.post("/api/documents").then().statusCode(202).extract().path("jobId");
        JsonPath job = awaitJob(jobId, JOB_TIMEOUT);
        assertThat(job.getString("state")).isEqualTo("completed");

        assertThat(estimate.getInt("chunks")).isEqualTo(job.getInt("stages.chunk.chunks"));
        assertThat(estimate.getLong("roles.contextualizer.calls")).isEqualTo(job.getLong("usage.byModel.'openai:stand-in'.calls"));
        assertThat(estimate.getLong("roles.graph-extractor.calls")).isEqualTo(job.getLong("usage.byModel.'anthropic:stand-in'.calls"));
        assertThat(estimate.getLong("roles.summarizer.calls")).isEqualTo(job.getLong("usage.byModel.'gemini:stand-in'.calls"));
        long counted = job.getLong("usage.inputTokens");
        System.out.printf("estimate tokens_in=%d, the provider stand-in counted %d (%.3f)%n", estimate.getLong("tokensIn"), counted,
                (double) estimate.getLong("tokensIn") / counted);
        assertThat(estimate.getLong("tokensIn")).as("estimated vs counted input tokens (%d)", counted)
                .isBetween(Math.round(counted * 0.8), Math.round(counted * 1.2));
    }

    @Test
    void anEstimateOfNothingUsableSaysWhy() {
        given().multiPart("collection", "llm-estimate").multiPart("files", "empty.md", new byte[0], "text/markdown")
                .post("/api/estimate").then().statusCode(400).body("message", containsString("empty file (0 bytes)"));
        given().multiPart("collection", "Bad Name!").multiPart("files", "a.md", "# A".getBytes(), "text/markdown")
                .post("/api/estimate").then().statusCode(400);
        given().multiPart("collection", "offline-estimate").multiPart("files", "a.md", "# A\nOne line.".getBytes(), "text/markdown")
                .post("/api/estimate").then().statusCode(200).body("tokensIn", equalTo(0)).body("cost", equalTo(0.0f))
                .body("documents", equalTo(1));
    }
}
