package dev.openrag.ingest;

import static dev.openrag.ingest.IngestTestSupport.awaitJob;
import static dev.openrag.ingest.IngestTestSupport.stats;
import static dev.openrag.ingest.IngestTestSupport.textDocument;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

import dev.openrag.knowledge.browse.DocumentText;
import dev.openrag.knowledge.neo4j.Neo4jDocumentTexts;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.localstack.test.DashboardSeries;
import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.schemas.Topics;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/** Documents travel the whole pipeline over real Kafka into real OpenSearch and Neo4j. */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class IngestionEndToEndTest {

    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(120);

    @Inject
    Driver driver;

    @Inject
    LexicalIndex lexical;

    @Inject
    InMemorySpanExporter spans;

    @Test
    void aMarkdownDocumentReachesBothStoresWithContextsVectorsAndGraph() {
        String markdown = """
                # Release guide
                How we ship **Blue Harbor** releases.

                ## Versioning
                Releases follow semantic versioning. The Release Manager tags every version.

                ## Rollback
                A rollback restores the previous version within ten minutes.
                """;
        JsonPath accepted = given().contentType(ContentType.JSON)
                .body(textDocument("e2e-md", "docs/release-guide.md", "Release guide", markdown))
                .post("/api/documents").then().statusCode(202).extract().jsonPath();
        String jobId = accepted.getString("jobId");

        JsonPath job = awaitJob(jobId, JOB_TIMEOUT);
        assertThat(job.getString("state")).isEqualTo("completed");
        assertThat(job.getInt("documents.done")).isEqualTo(1);
        assertThat(job.getInt("stages.sink-opensearch.done")).isEqualTo(1);
        String events = given().accept("text/event-stream").get("/api/jobs/" + jobId + "/events").then()
                .statusCode(200).extract().asString();
        assertThat(events).as("SSE of a finished job: its final status, then the stream ends")
                .contains("data:").contains("\"state\":\"completed\"");

        JsonPath stats = stats("e2e-md");
        assertThat(stats.getLong("documents")).isEqualTo(1);
        long chunks = stats.getLong("chunks.opensearch");
        assertThat(chunks).isPositive().isEqualTo(stats.getLong("chunks.neo4j"));

        try (var session = driver.session()) {
            var chunk = session.run("""
                    MATCH (d:Document {collection: 'e2e-md'})-[:HAS_SECTION*1..6]->(s:Section)-[:HAS_CHUNK]->(c:Chunk)
                    WHERE c.text CONTAINS 'rollback'
                    RETURN c.context AS context, size(c.embedding) AS dimension, s.headingPath AS path""").single();
            assertThat(chunk.get("context").asString()).contains("Release guide").contains("Section: Release guide");
            assertThat(chunk.get("dimension").asInt()).isEqualTo(384);
            assertThat(chunk.get("path").asList(v -> v.asString())).startsWith("Release guide");
            long mentions = session.run("MATCH (:Chunk {collection: 'e2e-md'})-[:MENTIONS]->(e:Entity) RETURN count(e) AS n")
                    .single().get("n").asLong();
            assertThat(mentions).as("terms such as Blue Harbor become entities").isPositive();
        }
        assertThat(lexical.search("e2e-md", "restore previous version", 3).get(0).chunk().text()).contains("rollback");

        // issue 63: the document's timeline, from its status events: every stage in order, one trace id
        JsonPath timeline = given().queryParam("collection", "e2e-md").get("/api/documents/" + accepted.getString("documentIds[0]") + "/timeline")
                .then().statusCode(200).extract().jsonPath();
        assertThat(timeline.getString("traceId")).matches("[0-9a-f]{32}");
        List<String> stages = timeline.getList("stages.stage");
        assertThat(stages).startsWith("accepted", "parse", "chunk")
                .contains("contextualize", "embed", "extract-graph", "sink-text", "sink-opensearch", "sink-neo4j", "sink-graph");
        assertThat(stages.indexOf("embed")).isGreaterThan(stages.indexOf("contextualize"));
        assertThat(stages.indexOf("sink-opensearch")).isGreaterThan(stages.indexOf("embed"));
        assertThat(timeline.getList("stages.outcome")).containsOnly("completed");
        assertThat(timeline.getInt("stages[1].attempts")).isEqualTo(1);
        assertThat(timeline.getString("stages[1].instance")).contains("/");
        assertThatOneTraceCrossesEveryHop(jobId, accepted.getString("documentIds[0]"), timeline.getString("traceId"));
        given().queryParam("collection", "e2e-md").get("/api/documents/no-such-document/timeline").then().statusCode(404);
        given().queryParam("collection", "Bad Name!").get("/api/documents/x/timeline").then().statusCode(400);

        // issue 63: lag per stage as a gauge, and the dashboard's series exist
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String metrics;
        do {
            IngestTestSupport.sleep(500);
            metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        } while (metrics.lines().filter(line -> line.startsWith("openrag_stage_lag_records{")).count() < 5 && System.nanoTime() < deadline);
        String scraped = metrics;
        assertThat(metrics.lines().filter(line -> line.startsWith("openrag_stage_lag_records{")).count())
                .as(() -> "lag series, from: " + scraped.lines().filter(line -> line.contains("openrag_")).toList())
                .isGreaterThanOrEqualTo(5);
        Map<String, Integer> lagNow = given().get("/api/stages/lag").then().statusCode(200).extract().jsonPath().getMap("stages");
        assertThat(lagNow).as("the lag per stage, as the UI's jobs view reads it, in flow order")
                .containsKeys("parse", "chunk", "embed", "sink-opensearch");
        assertThat(List.copyOf(lagNow.keySet()).indexOf("parse")).isLessThan(List.copyOf(lagNow.keySet()).indexOf("sink-opensearch"));
        for (String series : List.of("openrag_stage_chunks_total", "openrag_stage_documents_total", "openrag_stage_duration_seconds_count")) {
            assertThat(metrics).as(series).contains(series + "{");
        }
        String exported = metrics;
        assertThat(DashboardSeries.referenced()).as("every pipeline series the dashboard plots is one this app exports")
                .filteredOn(name -> name.startsWith("openrag_stage_")).isNotEmpty().allSatisfy(name -> assertThat(exported).contains(name));
    }

    /**
     * Issue 63: the spans the SDK's in-memory exporter recorded. Each stage and store write of the document is a span of
     * the timeline's trace, and each leads back through the Kafka hops (the connector's publish spans, whose context
     * the records' traceparent headers carried) to the upload's HTTP request.
     */
    private void assertThatOneTraceCrossesEveryHop(String jobId, String documentId, String traceId) {
        List<String> expected = List.of("parse", "chunk", "contextualize", "embed", "extract-graph", "sink-text", "sink-opensearch",
                "sink-neo4j", "sink-graph");
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        List<SpanData> stageSpans;
        while (true) { // a stage's span ends just after its status event, which may have completed the job
            stageSpans = spans.getFinishedSpanItems().stream()
                    .filter(span -> jobId.equals(span.getAttributes().get(AttributeKey.stringKey("openrag.job.id"))))
                    .filter(span -> documentId.equals(span.getAttributes().get(AttributeKey.stringKey("openrag.document.id"))))
                    .toList();
            if (stageSpans.stream().map(SpanData::getName).toList().containsAll(expected) || System.nanoTime() > deadline) {
                break;
            }
            IngestTestSupport.sleep(200);
        }
        assertThat(stageSpans).extracting(SpanData::getName).containsAll(expected);
        assertThat(stageSpans).extracting(SpanData::getTraceId).as("one trace, the one the timeline names").containsOnly(traceId);

        Map<String, SpanData> trace = spans.getFinishedSpanItems().stream().filter(span -> span.getTraceId().equals(traceId))
                .collect(java.util.stream.Collectors.toMap(SpanData::getSpanId, span -> span, (a, b) -> a));
        SpanData upload = trace.values().stream().filter(span -> span.getKind() == SpanKind.SERVER).findFirst().orElseThrow(
                () -> new AssertionError("no server span in the trace: " + trace.values().stream().map(SpanData::getName).toList()));
        assertThat(upload.getName()).contains("/api/documents");
        for (SpanData stage : stageSpans) {
            List<String> path = new java.util.ArrayList<>();
            SpanData at = stage;
            while (at != null && at != upload) {
                path.add(at.getName());
                at = trace.get(at.getParentSpanId());
            }
            assertThat(at).as("%s leads back to the upload through %s", stage.getName(), path).isSameAs(upload);
            // the connector's publish span of each record: "openrag.documents.arrived publish", then one per later hop
            long hops = path.stream().filter(name -> name.startsWith("openrag.") && name.endsWith(" publish")).count();
            assertThat(hops).as("Kafka hops on %s's way back: %s", stage.getName(), path).isEqualTo(expectedHops(stage.getName()));
        }
    }

    /** Records between the upload and a stage: arrived → parse → chunk → contextualize → embed → the stores. */
    private static long expectedHops(String stage) {
        return switch (stage) {
            case "parse" -> 1;
            case "chunk" -> 2;
            case "contextualize", "sink-text" -> 3;
            case "embed", "extract-graph" -> 4;
            default -> 5; // the sinks of the embedded and graph events
        };
    }

    @Test
    void everyFormatIsParsedAndSearchable() throws Exception {
        String jobId = given()
                .multiPart("collection", "e2e-formats")
                .multiPart("files", "notes.md", "# Notes 東京 😀\nThe word aardvarkmd lives here.\n\n## Café\nAnd zürichmd there."
                        .getBytes(StandardCharsets.UTF_8), "text/markdown")
                .multiPart("files", "page.html", "<html><head><title>Page</title></head><body><h1>Page</h1><p>The word aardvarkhtml lives here.</p></body></html>"
                        .getBytes(StandardCharsets.UTF_8), "text/html")
                .multiPart("files", "plain.txt", "The word aardvarktxt lives here.".getBytes(StandardCharsets.UTF_8), "text/plain")
                .multiPart("files", "Widget.java", "package x;\n\n/** Widgets. */\npublic class Widget {\n    int aardvarkjava() { return 1; }\n}\n"
                        .getBytes(StandardCharsets.UTF_8), "text/x-java-source")
                .multiPart("files", "report.pdf", Fixtures.pdf("The word aardvarkpdf lives here.", "Page two holds the word okapipdf."),
                        "application/pdf")
                .multiPart("files", "memo.docx", Fixtures.docx("Memo", "The word aardvarkdocx lives here."),
                        "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
                .multiPart("files", "book.epub", Fixtures.epub("Book", "The word aardvarkepub lives here."), "application/epub+zip")
                .post("/api/documents").then().statusCode(202).extract().path("jobId");

        JsonPath job = awaitJob(jobId, JOB_TIMEOUT);
        assertThat(job.getList("failures")).isEmpty();
        assertThat(job.getString("state")).isEqualTo("completed");
        assertThat(job.getInt("documents.done")).isEqualTo(7);
        for (String format : List.of("md", "html", "txt", "java", "pdf", "docx", "epub")) {
            assertThat(lexical.search("e2e-formats", "aardvark" + format, 1)).as(format).hasSize(1);
        }

        // issue 61: every document's text is kept, and each of its chunks slices it exactly (UTF-16 offsets)
        Neo4jDocumentTexts texts = new Neo4jDocumentTexts(driver);
        for (String format : List.of("md", "html", "txt", "java", "pdf", "docx", "epub")) {
            var hit = lexical.search("e2e-formats", "aardvark" + format, 1).get(0).chunk();
            DocumentText text = texts.get("e2e-formats", hit.documentId()).orElseThrow();
            DocumentText.ChunkSpan span = text.chunk(hit.chunkIndex()).orElseThrow();
            assertThat(text.text().substring(span.start(), span.end())).as(format).isEqualTo(hit.text());
            assertThat(text.version()).as(format).hasSize(64);
        }
        var markdown = lexical.search("e2e-formats", "zürichmd", 1).get(0).chunk();
        DocumentText notes = texts.get("e2e-formats", markdown.documentId()).orElseThrow();
        assertThat(notes.text().substring(notes.chunk(markdown.chunkIndex()).orElseThrow().start())).startsWith("## Café");
        assertThat(notes.headingPathAt(notes.text().indexOf("zürichmd"))).containsExactly("Notes 東京 😀", "Café");
        var pdf = lexical.search("e2e-formats", "okapipdf", 1).get(0).chunk();
        DocumentText report = texts.get("e2e-formats", pdf.documentId()).orElseThrow();
        assertThat(report.pages()).extracting(dev.openrag.schemas.Page::page).containsExactly(1, 2);
        assertThat(report.pageAt(report.text().indexOf("okapipdf"))).isEqualTo(2);
        assertThat(report.pageAt(report.text().indexOf("aardvarkpdf"))).isEqualTo(1);
    }

    @Test
    void badFilesFailWithReasonsInTheJobAndTheDeadLetterTopicWhileGoodOnesSucceed() {
        byte[] invalidUtf8 = {'o', 'k', ' ', (byte) 0xC3, (byte) 0x28, ' ', 'b', 'a', 'd'};
        byte[] junk = new byte[512];
        new java.util.Random(7).nextBytes(junk);
        String jobId = given()
                .multiPart("collection", "e2e-bad")
                .multiPart("files", "good.txt", "A perfectly fine document about zebras.".getBytes(StandardCharsets.UTF_8), "text/plain")
                .multiPart("files", "empty.txt", new byte[0], "text/plain")
                .multiPart("files", "junk.bin", junk, "application/octet-stream")
                .multiPart("files", "latin1.txt", invalidUtf8, "text/plain")
                .multiPart("files", "broken.pdf", "%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage without xref".getBytes(StandardCharsets.US_ASCII),
                        "application/pdf")
                .post("/api/documents").then().statusCode(202)
                .extract().path("jobId");

        JsonPath job = awaitJob(jobId, JOB_TIMEOUT);
        assertThat(job.getString("state")).isEqualTo("completed_with_errors");
        assertThat(job.getInt("documents.done")).isEqualTo(1);
        List<Map<String, String>> failures = job.getList("failures");
        assertThat(failures).hasSize(4);
        assertThat(failures).anySatisfy(f -> assertThat(f.get("reason")).contains("empty.txt").contains("0 bytes"));
        assertThat(failures).anySatisfy(f -> assertThat(f.get("reason")).contains("junk.bin").contains("unsupported"));
        assertThat(failures).anySatisfy(f -> {
            assertThat(f.get("stage")).isEqualTo("parse");
            assertThat(f.get("reason")).contains("not valid UTF-8");
            assertThat(f.get("source")).isEqualTo("upload://latin1.txt");
        });
        assertThat(failures).anySatisfy(f -> {
            assertThat(f.get("stage")).isEqualTo("parse");
            assertThat(f.get("reason")).contains("application/pdf");
        });
        List<String> deadLetters = IngestTestSupport.readUntil(Topics.INGEST_DLQ, jobId, 4, Duration.ofSeconds(30));
        assertThat(deadLetters).allSatisfy(record -> assertThat(record).contains("\"reason\"").contains("\"stage\""));
        assertThat(stats("e2e-bad").getLong("chunks.opensearch")).isEqualTo(1);
    }

    @Test
    void sameDocumentTwiceKeepsItsChunksAChangedOneReplacesThemAndDeleteRemovesItEverywhere() {
        String longText = String.join("\n\n", java.util.Collections.nCopies(12,
                "Paragraph about lighthouses and the keepers who tend their lamps through long winter nights at sea. ".repeat(6)));
        Map<String, Object> document = textDocument("e2e-versions", "file:///lighthouse.txt", "Lighthouses", longText);
        JsonPath first = given().contentType(ContentType.JSON).body(document).post("/api/documents").then().statusCode(202)
                .extract().jsonPath();
        String documentId = first.getString("documentIds[0]");
        awaitJob(first.getString("jobId"), JOB_TIMEOUT);
        long chunks = stats("e2e-versions").getLong("chunks.opensearch");
        assertThat(chunks).isGreaterThan(2);

        String again = given().contentType(ContentType.JSON).body(document).post("/api/documents").then().statusCode(202)
                .extract().path("jobId");
        assertThat(awaitJob(again, JOB_TIMEOUT).getString("state")).isEqualTo("completed");
        assertThat(stats("e2e-versions").getLong("chunks.opensearch")).isEqualTo(chunks);
        assertThat(stats("e2e-versions").getLong("chunks.neo4j")).isEqualTo(chunks);

        String shorter = given().contentType(ContentType.JSON)
                .body(textDocument("e2e-versions", "file:///lighthouse.txt", "Lighthouses", "Lighthouses are now automated."))
                .post("/api/documents").then().statusCode(202).extract().path("jobId");
        awaitJob(shorter, JOB_TIMEOUT);
        JsonPath replaced = stats("e2e-versions");
        assertThat(replaced.getLong("documents")).isEqualTo(1);
        assertThat(replaced.getLong("chunks.opensearch")).isEqualTo(1);
        assertThat(replaced.getLong("chunks.neo4j")).isEqualTo(1);

        given().delete("/api/documents/" + documentId + "?collection=e2e-versions").then().statusCode(202);
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline && (stats("e2e-versions").getLong("chunks.opensearch") > 0
                || stats("e2e-versions").getLong("chunks.neo4j") > 0 || stats("e2e-versions").getLong("documents") > 0)) {
            IngestTestSupport.sleep(300);
        }
        JsonPath gone = stats("e2e-versions");
        assertThat(gone.getLong("documents")).isZero();
        assertThat(gone.getLong("chunks.opensearch")).isZero();
        assertThat(gone.getLong("chunks.neo4j")).isZero();
        // the collection's only document: nothing of it is left in the graph (sections and their
        // summaries, chunks with their vectors, entities only it mentioned) but its text's tombstone and its
        // version record, which hold no text and no stored version, only the delete's time, so that a late
        // write of an older version stays out
        try (var session = driver.session()) {
            assertThat(session.run("MATCH (n) WHERE n.collection = 'e2e-versions' AND NOT (n:DocumentText AND n.deleted = true) "
                    + "AND NOT (n:DocumentVersion AND none(k IN keys(n) WHERE k STARTS WITH 'stored_')) "
                    + "RETURN labels(n)[0] AS label").list(r -> r.get("label").asString()))
                    .as("nodes left after DELETE").isEmpty();
            assertThat(session.run("MATCH (t:DocumentText) WHERE t.collection = 'e2e-versions' RETURN t.text IS NULL AS empty, "
                    + "t.arrivedAt IS NOT NULL AS dated").list(r -> r.get("empty").asBoolean() && r.get("dated").asBoolean()))
                    .as("the text's tombstone").containsOnly(true);
        }
    }
}
