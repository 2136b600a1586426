package dev.openrag.ingest;

import static dev.openrag.ingest.IngestTestSupport.awaitJob;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.EventCodec;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Source;
import dev.openrag.schemas.Topics;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/** Any producer may write to openrag.documents.arrived; bad events and bad requests get precise answers. */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class KafkaProducersAndBadRequestsTest {

    @Test
    void aPlainKafkaProducerCanIngestADocument() throws Exception {
        DocumentArrived event = new DocumentArrived(EventEnvelope.CURRENT_SCHEMA_VERSION, "evt-ext-1", "ext-doc-1",
                "external-job-1", "external", new Source("producer", "s3://bucket/otters.md"), "Otters", "text/markdown",
                "# Otters\nOtters hold hands while they sleep so they do not drift apart.", DocumentArrived.TEXT, null, Map.of());
        IngestTestSupport.produce(Topics.DOCUMENTS_ARRIVED, "ext-doc-1", new EventCodec().toJson(event));

        long deadline = System.currentTimeMillis() + 120_000;
        while (System.currentTimeMillis() < deadline && IngestTestSupport.stats("external").getLong("chunks.opensearch") == 0) {
            IngestTestSupport.sleep(300);
        }
        assertThat(IngestTestSupport.stats("external").getLong("chunks.opensearch")).isEqualTo(1);
        assertThat(awaitJob("external-job-1", Duration.ofSeconds(60)).getString("state")).isEqualTo("completed");
    }

    @Test
    void invalidEventsOnTheTopicGoToTheDeadLetterTopicWithTheReason() throws Exception {
        IngestTestSupport.produce(Topics.DOCUMENTS_ARRIVED, "broken-json-1", "{\"eventId\": \"broken-json-1\", oops");
        IngestTestSupport.produce(Topics.DOCUMENTS_ARRIVED, "missing-source-1", """
                {"schemaVersion":1,"eventId":"missing-source-1","documentId":"missing-source-1","jobId":"j","collection":"c",
                 "content":"hello","contentEncoding":"text"}""");

        String notJson = IngestTestSupport.readUntil(Topics.INGEST_DLQ, "broken-json-1", 1, Duration.ofSeconds(60)).get(0);
        assertThat(notJson).contains("\"stage\":\"parse\"").contains("not valid JSON").contains("\"originalTopic\":\"openrag.documents.arrived\"");
        String noSource = IngestTestSupport.readUntil(Topics.INGEST_DLQ, "missing-source-1", 1, Duration.ofSeconds(60)).get(0);
        assertThat(noSource).contains("source");
    }

    @Test
    void badRequestsAreAnsweredWithJsonErrorsNamingTheProblem() {
        given().multiPart("collection", "x").post("/api/documents").then().statusCode(400)
                .body("error", equalTo("bad_request")).body("message", containsString("empty upload"));
        given().multiPart("files", "empty.txt", new byte[0], "text/plain").post("/api/documents").then().statusCode(400)
                .body("message", containsString("empty.txt: empty file"));
        given().multiPart("files", "blob.bin", new byte[] {0, 1, 2, 3, (byte) 0xFF, 5, 6, 7, 8, 9}, "application/octet-stream")
                .post("/api/documents").then().statusCode(415).body("error", equalTo("unsupported_media_type"));
        byte[] big = "x".repeat(1_100_000).getBytes(StandardCharsets.UTF_8);
        given().multiPart("files", "big.txt", big, "text/plain").post("/api/documents").then().statusCode(413)
                .body("message", containsString("limit is 1048576"));
        given().contentType(ContentType.JSON).body(Map.of("title", "t", "text", " ")).post("/api/documents").then()
                .statusCode(400).body("message", containsString("'text'"));
        given().contentType(ContentType.JSON).body(Map.of("text", "hello", "collection", "Bad Name")).post("/api/documents").then()
                .statusCode(400).body("message", containsString("invalid collection name 'Bad Name'"));
        given().contentType(ContentType.JSON).body("{\"text\": ").post("/api/documents").then()
                .statusCode(400).body("error", equalTo("invalid_json"));
        given().get("/api/jobs/no-such-job").then().statusCode(404).body("error", equalTo("not_found"));
        given().get("/api/jobs?limit=0").then().statusCode(400).body("message", containsString("'limit' must be between 1 and 100"));
    }

    @Test
    void aCorpusThatIsNotValidNamesTheOffendingPosition() {
        given().contentType(ContentType.JSON).body("[{\"doc_id\": \"a\", ").post("/api/corpus?collection=c").then()
                .statusCode(400).body("error", equalTo("invalid_json")).body("message", containsString("line 1"));
        given().contentType(ContentType.JSON).body(List.of(Map.of("doc_id", "a", "original_uuid", "u1", "content", "x",
                        "chunks", List.of(Map.of("chunk_id", "c0", "original_index", 0)))))
                .post("/api/corpus?collection=c").then()
                .statusCode(400).body("message", equalTo("$[0].chunks[0].content: required string is missing"));
        given().contentType(ContentType.JSON).body("{}").post("/api/corpus?collection=c").then()
                .statusCode(400).body("message", containsString("JSON array"));
    }
}
