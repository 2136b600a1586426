package dev.openrag.ingest;

import static dev.openrag.ingest.IngestTestSupport.awaitJob;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import java.util.stream.Collectors;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.opensearch.client.json.JsonData;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.schemas.DeadLetter;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.EventCodec;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Source;
import dev.openrag.schemas.Topics;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * Dead letters are listed with their reasons and re-driven to the topic they came from as a new
 * job, which then completes. The letter is written as the pipeline writes one when it gives up
 * (here: a parse that waited past its give-up deadline for an engine that has since come back).
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class DeadLetterRedriveTest {

    @Inject
    OpenSearchClient openSearch;

    @Inject
    dev.openrag.knowledge.port.LexicalIndex lexical;

    private static final EventCodec CODEC = new EventCodec();

    @Test
    void aDeadLetterIsListedWithItsReasonThenRedrivenAndLandsInANewJob() throws Exception {
        String collection = "dlq-redrive";
        DocumentArrived original = new DocumentArrived(EventEnvelope.CURRENT_SCHEMA_VERSION, "evt-dlq-1", "dlq-doc-1", "dlq-job-1",
                collection, new Source("producer", "s3://bucket/capybaras.md"), "Capybaras", "text/markdown",
                "# Capybaras\nCapybaras are the largest living rodents and excellent swimmers.", DocumentArrived.TEXT, null, Map.of());
        IngestTestSupport.produce(Topics.INGEST_DLQ, "dlq-doc-1", CODEC.toJson(new DeadLetter(EventEnvelope.CURRENT_SCHEMA_VERSION,
                "letter-dlq-1", "dlq-doc-1", "dlq-job-1", collection, "parse",
                "parse gave up waiting for neo4j after PT1M: Neo4j unavailable", Topics.DOCUMENTS_ARRIVED, CODEC.toJson(original))));
        // a refused upload's original is the file, not an event: listed, but not re-sendable
        IngestTestSupport.produce(Topics.INGEST_DLQ, "dlq-upload-1", CODEC.toJson(new DeadLetter(EventEnvelope.CURRENT_SCHEMA_VERSION,
                "letter-dlq-2", "dlq-upload-1", "dlq-job-2", collection, "upload", "big.bin: unsupported media type",
                Topics.DOCUMENTS_ARRIVED, "\u0000binary")));

        JsonPath listed = given().queryParam("collection", collection).get("/api/dlq").then().statusCode(200).extract().jsonPath();
        assertThat(listed.getList("deadLetters.id")).containsExactly("letter-dlq-2", "letter-dlq-1"); // newest first
        assertThat(listed.getString("deadLetters[1].reason")).contains("gave up waiting for neo4j");
        assertThat(listed.getString("deadLetters[1].originalTopic")).isEqualTo(Topics.DOCUMENTS_ARRIVED);
        assertThat(given().queryParam("collection", collection).queryParam("stage", "upload").get("/api/dlq").then().statusCode(200)
                .extract().jsonPath().getList("deadLetters.id")).containsExactly("letter-dlq-2");

        JsonPath redriven = given().contentType(ContentType.JSON).body(Map.of("collection", collection)).post("/api/dlq/redrive")
                .then().statusCode(202).extract().jsonPath();
        assertThat(redriven.getInt("redriven")).isEqualTo(1);
        assertThat(redriven.getList("documentIds")).containsExactly("dlq-doc-1");
        assertThat(redriven.getList("skipped", String.class)).singleElement().asString().contains("letter-dlq-2");
        String jobId = redriven.getString("jobId");
        assertThat(jobId).isNotEqualTo("dlq-job-1");

        JsonPath job = awaitJob(jobId, Duration.ofMinutes(2));
        assertThat(job.getString("state")).isEqualTo("completed");
        assertThat(job.getInt("documents.done")).isEqualTo(1);
        assertThat(IngestTestSupport.stats(collection).getLong("chunks.opensearch")).isEqualTo(1);
        assertThat(IngestTestSupport.stats(collection).getLong("chunks.neo4j")).isEqualTo(1);
    }

    /**
     * Issue 60's poison document, on real OpenSearch: its in-flight request breaker is lowered to 64 kB,
     * so OpenSearch answers 429 (an outage's answer) to the one document whose bulk request is larger,
     * and keeps serving everything else. That document is dead-lettered with OpenSearch's reason after
     * {@code refused-while-up-attempts} (3 in tests) and the small document sent after it completes.
     * The real outage (nothing succeeds: the engine killed, the probe down) still waits: EngineOutageIT.
     */
    @Test
    void aDocumentOpenSearchRefusesWhileServingOthersIsDeadLetteredAndThePartitionMovesOn() {
        String collection = "poison";
        String big = IntStream.range(0, 900).mapToObj(i -> "Paragraph " + i + " of the oversized manual describes gearbox "
                + "maintenance, torque settings and the lubrication schedule in tiresome detail.").collect(Collectors.joining("\n\n"));
        openSearchSetting("64kb");
        try {
            String poisonJob = given().contentType(ContentType.JSON)
                    .body(IngestTestSupport.textDocument(collection, "note://poison/manual", "Manual", big))
                    .post("/api/documents").then().statusCode(202).extract().path("jobId");
            String goodJob = given().contentType(ContentType.JSON)
                    .body(IngestTestSupport.textDocument(collection, "note://poison/otters", "Otters", "Otters hold hands while they sleep."))
                    .post("/api/documents").then().statusCode(202).extract().path("jobId");

            JsonPath poisoned = awaitJob(poisonJob, Duration.ofMinutes(2));
            assertThat(poisoned.getString("state")).as(poisoned.prettify()).isEqualTo("failed");
            assertThat(poisoned.getString("failures[0].reason")).contains("opensearch refused this document 3 times", "OpenSearch answered 429");
            JsonPath good = awaitJob(goodJob, Duration.ofMinutes(2));
            assertThat(good.getString("state")).as("the partition moved on: " + good.prettify()).isEqualTo("completed");
            JsonPath letters = given().queryParam("collection", collection).get("/api/dlq").then().statusCode(200).extract().jsonPath();
            assertThat(letters.getList("deadLetters.stage")).containsExactly("sink-opensearch");
            assertThat(letters.getString("deadLetters[0].reason")).contains("429");
        } finally {
            openSearchSetting("100%"); // the default
        }
        assertThat(IngestTestSupport.stats(collection).getLong("chunks.opensearch")).as("only the good document's chunk").isEqualTo(1);
    }

    /**
     * Issue 68: OpenSearch answers (its health stays green) but the collection's index is read-only, as
     * the flood-stage watermark makes it, for longer than the old poison judgement (3 refusals while the
     * engine answered, ~7 s in tests) during a 20-document stream. Every write is refused alike, so the
     * sink waits: readiness names OpenSearch and the block, the job keeps running, nothing is
     * dead-lettered; once the block is lifted the job completes with all 20 searchable. The control,
     * a document refused while other writes go through, is dead-lettered (the test above).
     */
    @Test
    void aReadOnlyOpenSearchDuringAStreamIsAnOutageNotTwentyPoisonDocuments() throws Exception {
        String collection = "read-only";
        String index = dev.openrag.knowledge.opensearch.ChunkIndex.name(collection);
        String before = given().contentType(ContentType.JSON)
                .body(IngestTestSupport.textDocument(collection, "note://read-only/control", "Control", "Lynxes have tufted ears."))
                .post("/api/documents").then().statusCode(202).extract().path("jobId");
        assertThat(awaitJob(before, Duration.ofMinutes(2)).getString("state")).isEqualTo("completed"); // the index exists now

        readOnly(index, true);
        String jobId;
        JsonPath blocked;
        try {
            var upload = given().multiPart("collection", collection);
            for (int i = 0; i < 20; i++) { // a distinct made-up word per document, to find each one
                upload = upload.multiPart("files", "animal-" + i + ".md", ("# Animal " + i + "\n\nThe zorbleck" + i
                        + " grazes on high meadows and sleeps in burrows.").getBytes(java.nio.charset.StandardCharsets.UTF_8), "text/markdown");
            }
            jobId = upload.post("/api/documents").then().statusCode(202).extract().path("jobId");
            // twice the old poison judgement (3 refusals 1 s and 2 s apart, ~7 s with the requests): under it, the first
            // documents would have been dead-lettered well within the window
            long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            String readiness = "";
            while (System.nanoTime() < until) {
                var ready = given().get("/q/health/ready").then().extract();
                if (ready.statusCode() == 503) {
                    readiness = ready.body().asString();
                }
                JsonPath job = given().get("/api/jobs/" + jobId).then().statusCode(200).extract().jsonPath();
                assertThat(job.getString("state")).as("the job waits, it does not give up: " + job.prettify()).isEqualTo("running");
                Thread.sleep(500);
            }
            // the first stage to write there waits: parse, which maps the new documents' metadata fields into the index
            // before any store has them, or the OpenSearch sink
            assertThat(readiness).as("readiness names the engine and its reason while it refuses writes")
                    .contains("opensearch refuses writes (cluster_block_exception").containsAnyOf("\"parse\"", "sink-opensearch");
            blocked = given().get("/api/jobs/" + jobId).then().statusCode(200).extract().jsonPath();
        } finally {
            readOnly(index, false);
        }
        assertThat(blocked.prettify()).as("the job shows the wait").contains("opensearch refuses writes");

        JsonPath job = awaitJob(jobId, Duration.ofMinutes(2));
        assertThat(job.getString("state")).as(job.prettify()).isEqualTo("completed");
        assertThat(job.getInt("documents.done")).isEqualTo(20);
        assertThat(job.getList("failures")).isEmpty();
        assertThat(given().queryParam("collection", collection).get("/api/dlq").then().statusCode(200).extract().jsonPath()
                .getList("deadLetters")).as("no dead letters").isEmpty();
        for (int n = 0; n < 20; n++) {
            int i = n;
            assertThat(lexical.search(collection, "zorbleck" + i, 3)).as("document " + i + " is searchable")
                    .extracting(hit -> hit.chunk().text()).anySatisfy(text -> assertThat(text).contains("zorbleck" + i + " grazes"));
        }
        assertThat(IngestTestSupport.stats(collection).getLong("chunks.opensearch")).isEqualTo(21);
    }

    /** The flood-stage watermark's block, set by hand and lifted as OpenSearch's docs say (null). */
    private void readOnly(String index, boolean blocked) {
        try (var answer = openSearch.generic().execute(org.opensearch.client.opensearch.generic.Requests.builder().method("PUT")
                .endpoint("/" + index + "/_settings").json("{\"index.blocks.read_only_allow_delete\": " + (blocked ? "true" : "null") + "}")
                .build())) {
            assertThat(answer.getStatus()).as("setting the block on " + index + " to " + blocked).isEqualTo(200);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void openSearchSetting(String inFlightLimit) {
        try {
            openSearch.cluster().putSettings(s -> s.transient_("network.breaker.inflight_requests.limit",
                    JsonData.of(inFlightLimit)));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void badDeadLetterRequestsAreClearErrors() {
        given().contentType(ContentType.JSON).body(Map.of()).post("/api/dlq/redrive").then().statusCode(400)
                .body("message", containsString("\"all\": true"));
        given().contentType(ContentType.JSON).post("/api/dlq/redrive").then().statusCode(400);
        given().queryParam("limit", 0).get("/api/dlq").then().statusCode(400).body("message", containsString("'limit'"));
        given().queryParam("limit", 5000).get("/api/dlq").then().statusCode(400);
        given().contentType(ContentType.JSON).body(Map.of("documentId", "no-such-document")).post("/api/dlq/redrive").then()
                .statusCode(200).body("redriven", equalTo(0));
        assertThat(given().queryParam("documentId", "no-such-document").get("/api/dlq").then().statusCode(200).extract()
                .jsonPath().getList("deadLetters")).isEqualTo(List.of());
    }
}
