package dev.openrag.query.ask;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.knowledge.port.Correction;
import dev.openrag.memory.neo4j.Neo4jMemoryStore;
import dev.openrag.query.CountedDocumentTexts;
import dev.openrag.query.FixtureTest;
import dev.openrag.query.SearchFixture;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/** Ask without an LLM (the default install): extractive answers with numbered sources, JSON and SSE, on real stores. */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class AskApiTest extends FixtureTest {

    @Test
    void withoutAnLlmTheAnswerIsExtractiveWithCitedSources() {
        given().contentType(ContentType.JSON)
                .body(Map.of("question", "How much sun do tomatoes need?", "collection", SearchFixture.COLLECTION, "k", 3))
                .post("/api/ask").then().statusCode(200)
                .body("mode", equalTo("extractive"))
                .body("model", nullValue())
                .body("fallbackReason", containsString("no chat model configured"))
                .body("answer", containsString("Tomatoes need six hours of sun and regular watering. [1]"))
                .body("sources[0].n", equalTo(1))
                .body("sources[0].documentId", equalTo("doc-2"))
                .body("sources[0].sourceUri", equalTo("file:///doc-2"));
    }

    @Test
    void correctionsLeadTheAnswer() {
        long now = System.currentTimeMillis();
        new dev.openrag.knowledge.neo4j.Neo4jCorrectionStore(driver).add(new Correction("ask-corr-" + now, "ask-test", "Consumer groups were renamed to reader groups.",
                null, SearchFixture.COLLECTION + "/doc-3#0", null, now, null), embedder.embedQuery("Consumer groups were renamed"));
        String answer = given().contentType(ContentType.JSON)
                .body(Map.of("question", "Which consumers share the partitions of a topic?", "collection", SearchFixture.COLLECTION,
                        "k", 1, "scopes", List.of("ask-test")))
                .post("/api/ask").then().statusCode(200).body("corrections.id", hasItem("ask-corr-" + now))
                .extract().path("answer");
        assertThat(answer).startsWith("Correction: Consumer groups were renamed to reader groups.");
    }

    @Test
    void streamsTokensThenSourcesThenDone() {
        String stream = given().contentType(ContentType.JSON).accept("text/event-stream")
                .body(Map.of("question", "How much sun do tomatoes need?", "collection", SearchFixture.COLLECTION, "k", 2))
                .post("/api/ask").then().statusCode(200).extract().asString();
        int token = stream.indexOf("event:token");
        int sources = stream.indexOf("event:sources");
        int done = stream.indexOf("event:done");
        assertThat(token).as(stream).isGreaterThanOrEqualTo(0);
        assertThat(sources).isGreaterThan(token);
        assertThat(done).isGreaterThan(sources);
        assertThat(stream).contains("Tomatoes need six hours of sun").contains("\"mode\":\"extractive\"")
                .contains("\"chunkId\":\"" + SearchFixture.COLLECTION + "/doc-2#0\"");
    }

    @Inject
    InMemorySpanExporter spans;

    /** Issue 63: an ask and a search are traces, continued from the caller's traceparent, with a span per retriever and step. */
    @Test
    void askAndSearchAreTracesWithASpanPerRetrieverAndStep() {
        String askTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
        given().contentType(ContentType.JSON).header("traceparent", "00-" + askTrace + "-00f067aa0ba902b7-01")
                .body(Map.of("question", "How much sun do tomatoes need?", "collection", SearchFixture.COLLECTION, "k", 3))
                .post("/api/ask").then().statusCode(200);
        Map<String, SpanData> ask = trace(askTrace, "ask.extractive");
        assertThat(ask).containsKeys("ask", "search", "search.embedQuery", "search.vector", "search.bm25", "search.rerank", "ask.extractive");
        assertThat(parentOf(ask, "search.vector")).isEqualTo("search");
        assertThat(parentOf(ask, "search.bm25")).isEqualTo("search");
        assertThat(parentOf(ask, "search")).isEqualTo("ask");
        assertThat(parentOf(ask, "ask.extractive")).isEqualTo("ask");
        assertThat(ask.get(parentOf(ask, "ask")).getKind()).as("the ask hangs under the request's server span").isEqualTo(SpanKind.SERVER);

        String searchTrace = "0af7651916cd43dd8448eb211c80319c";
        given().contentType(ContentType.JSON).header("traceparent", "00-" + searchTrace + "-b7ad6b7169203331-01")
                .body(Map.of("query", "tomatoes sun", "collection", SearchFixture.COLLECTION, "mode", "bm25"))
                .post("/api/search").then().statusCode(200);
        Map<String, SpanData> search = trace(searchTrace, "search");
        assertThat(search).containsKeys("search", "search.bm25").doesNotContainKey("search.vector");
        assertThat(search.get(parentOf(search, "search")).getKind()).isEqualTo(SpanKind.SERVER);
    }

    /**
     * Issue 72: an ask cuts its answer and citations from its one search's hits and their chunks' places,
     * reading no document's text at all.
     */
    @Test
    void anAskSearchesOnceAndReadsOnlyItsHitsPlacesOnce() {
        String askTrace = "5c0a2f3577b34da6a3ce929d0e0e4736";
        int readsBefore = CountedDocumentTexts.READS.get();
        int placeReadsBefore = CountedDocumentTexts.PLACE_READS.get();
        given().contentType(ContentType.JSON).header("traceparent", "00-" + askTrace + "-00f067aa0ba902b7-01")
                .body(Map.of("question", "How much sun do tomatoes need?", "collection", SearchFixture.COLLECTION, "k", 3))
                .post("/api/ask").then().statusCode(200).body("mode", equalTo("extractive"))
                .body("answer", containsString("Tomatoes need six hours of sun"));
        trace(askTrace, "ask.extractive");
        List<String> names = spans.getFinishedSpanItems().stream().filter(span -> span.getTraceId().equals(askTrace))
                .map(SpanData::getName).toList();
        assertThat(names).as("one search, one read of places").containsOnlyOnce("search", "search.spans");
        assertThat(CountedDocumentTexts.PLACE_READS.get() - placeReadsBefore).as("reads of chunks' places").isEqualTo(1);
        assertThat(CountedDocumentTexts.READS.get() - readsBefore).as("reads of whole texts").isZero();
    }

    /** The spans of one trace by name, once the one named {@code last} has ended (spans end as the answer is written). */
    private Map<String, SpanData> trace(String traceId, String last) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        Map<String, SpanData> byName;
        do {
            byName = spans.getFinishedSpanItems().stream().filter(span -> span.getTraceId().equals(traceId))
                    .collect(Collectors.toMap(SpanData::getName, span -> span, (a, b) -> a));
        } while (!byName.containsKey(last) && System.nanoTime() < deadline && pause());
        return byName;
    }

    private static String parentOf(Map<String, SpanData> trace, String name) {
        String parentId = trace.get(name).getParentSpanId();
        return trace.values().stream().filter(span -> span.getSpanId().equals(parentId)).map(SpanData::getName).findFirst()
                .orElse("(none: " + parentId + ")");
    }

    private static boolean pause() {
        try {
            Thread.sleep(100);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void badQuestionsAreClearErrors() {
        given().contentType(ContentType.JSON).body(Map.of("question", " ")).post("/api/ask").then().statusCode(400)
                .body("message", containsString("'question' is required"));
        given().contentType(ContentType.JSON).body(Map.of("question", "x", "k", 21)).post("/api/ask").then().statusCode(400)
                .body("message", containsString("'k' must be between 1 and 20"));
        given().contentType(ContentType.JSON).body(Map.of("question", "x", "collection", "never-ingested")).post("/api/ask")
                .then().statusCode(400).body("message", containsString("unknown collection 'never-ingested'"));
        given().contentType(ContentType.JSON).accept("text/event-stream").body(Map.of("question", ""))
                .post("/api/ask").then().statusCode(400).body(containsString("'question' is required"));
        String stream = given().contentType(ContentType.JSON).accept("text/event-stream")
                .body(Map.of("question", "x", "collection", "never-ingested")).post("/api/ask").then().statusCode(200)
                .extract().asString();
        assertThat(stream).contains("event:error").contains("unknown collection 'never-ingested'");
    }
}
