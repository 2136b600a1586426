package dev.openrag.ingest.source;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.localstack.test.LocalStackTestResource;
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
 * Caller metadata from every way in (JSON upload, multipart upload, Kafka event) reaches the stores
 * through the real pipeline: typed fields on the OpenSearch chunks, typed properties on the Neo4j
 * document. Bad metadata is a 400 (or a dead letter, for an event) naming the key; a valid upload
 * beside it is taken.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class MetadataIngestTest {

    private static final String COLLECTION = "meta-ingest";

    @Inject
    Driver driver;

    @Inject
    OpenSearchClient openSearch;

    @Test
    void jsonUploadMetadataIsKeptInNeo4jAndOpenSearch() throws Exception {
        Map<String, Object> body = Map.of("collection", COLLECTION, "uri", "notes://payments", "title", "Payments runbook",
                "text", "# Payments\nRetry a failed invoice twice, then page the on-call engineer.",
                "metadata", Map.of("team", "payments", "year", 2026, "reviewed", "2026-03-01", "tags", List.of("oncall", "billing")));
        String jobId = given().contentType(ContentType.JSON).body(body).post("/api/documents")
                .then().statusCode(202).extract().path("jobId");
        assertThat(awaitJob(jobId).getString("state")).isEqualTo("completed");
        String documentId = dev.openrag.schemas.Ids.documentIdFromUri("notes://payments");

        Map<String, Value> node = documentNode(documentId);
        assertThat(node.get("meta_s_team").asList(Value::asString)).containsExactly("payments");
        assertThat(node.get("meta_n_year").asLong()).isEqualTo(2026);
        assertThat(node.get("meta_d_reviewed").asZonedDateTime().toInstant()).isEqualTo(ZonedDateTime.parse("2026-03-01T00:00:00Z").toInstant());
        assertThat(node.get("meta_s_tags").asList(Value::asString)).containsExactly("oncall", "billing");
        assertThat(node.get("meta_s_title").asList(Value::asString)).containsExactly("Payments runbook");
        assertThat(node.get("meta_s_mediaType").asList(Value::asString)).containsExactly("text/plain");

        @SuppressWarnings("rawtypes")
        Map chunk = openSearch.get(g -> g.index("openrag-chunks-" + COLLECTION).id(COLLECTION + "/" + documentId + "#0"), Map.class).source();
        assertThat(chunk).isNotNull();
        Map<?, ?> strings = (Map<?, ?>) chunk.get("meta_s");
        assertThat(strings.get("team")).isEqualTo("payments");
        assertThat(strings.get("tags")).isEqualTo(List.of("oncall", "billing"));
        assertThat(((Number) ((Map<?, ?>) chunk.get("meta_n")).get("year")).longValue()).isEqualTo(2026);
        assertThat(((Map<?, ?>) chunk.get("meta_d")).get("reviewed")).isEqualTo("2026-03-01T00:00:00Z");
    }

    @Test
    void multipartMetadataGoesToEveryFileWithTheSourceFieldsTheUploadKnows() {
        String jobId = given().multiPart("collection", COLLECTION)
                .multiPart("metadata", "{\"team\": \"risk\", \"quarter\": 3}", "application/json")
                .multiPart("files", "fraud-rules.md", "# Fraud\nBlock cards after three declines.".getBytes(StandardCharsets.UTF_8), "text/markdown")
                .multiPart("files", "limits.txt", "Daily limits reset at midnight UTC.".getBytes(StandardCharsets.UTF_8), "text/plain")
                .post("/api/documents").then().statusCode(202).extract().path("jobId");
        JsonPath job = awaitJob(jobId);
        assertThat(job.getString("state")).isEqualTo("completed");

        for (String file : List.of("fraud-rules.md", "limits.txt")) {
            Map<String, Value> node = documentNode(dev.openrag.schemas.Ids.documentIdFromUri("upload://" + file));
            assertThat(node.get("meta_s_team").asList(Value::asString)).containsExactly("risk");
            assertThat(node.get("meta_n_quarter").asLong()).isEqualTo(3);
            assertThat(node.get("meta_s_fileName").asList(Value::asString)).containsExactly(file);
            assertThat(node.get("meta_s_extension").asList(Value::asString)).containsExactly(file.substring(file.indexOf('.') + 1));
        }
    }

    @Test
    void kafkaEventMetadataIsKeptAndABadOneIsADeadLetterNamingTheKey() throws Exception {
        DocumentArrived good = event("meta-evt-good", Map.of("team", "payments", "score", 4.5));
        produce("meta-evt-good", new EventCodec().toJson(good));
        long deadline = System.currentTimeMillis() + 120_000;
        while (System.currentTimeMillis() < deadline && documentNodeOrNull("meta-evt-good", "meta_n_score") == null) {
            Thread.sleep(300);
        }
        Map<String, Value> node = documentNode("meta-evt-good");
        assertThat(node.get("meta_n_score").asDouble()).isEqualTo(4.5);
        assertThat(node.get("meta_s_team").asList(Value::asString)).containsExactly("payments");
        assertThat(node.get("meta_s_title").asList(Value::asString)).as("source fields parsing fills").containsExactly("Event doc");
        assertThat(node.get("meta_s_mediaType").asList(Value::asString)).containsExactly("text/markdown");

        produce("meta-evt-bad", new EventCodec().toJson(event("meta-evt-bad", Map.of("or", "x"))));
        List<String> dead = dev.openrag.ingest.IngestTestSupportAccess.readUntil(Topics.INGEST_DLQ, "meta-evt-bad", Duration.ofSeconds(60));
        assertThat(dead.get(0)).contains("metadata").contains("'or' is a filter operator");

        // a source field's name in another case, beside the control above (the exact names pass, parsing fills them)
        for (String key : List.of("Title", "PATH", "fileNAME")) {
            String id = "meta-evt-case-" + key.toLowerCase(java.util.Locale.ROOT);
            produce(id, new EventCodec().toJson(event(id, Map.of(key, "x", "team", "payments"))));
            List<String> refused = dev.openrag.ingest.IngestTestSupportAccess.readUntil(Topics.INGEST_DLQ, id, Duration.ofSeconds(60));
            assertThat(refused.get(0)).as(key).contains("metadata").contains("'" + key + "' is in another case a source field");
            assertThat(documentNodeOrNull(id, "meta_s_team")).as(key + " is stored nowhere").isNull();
        }
    }

    @Test
    void badMetadataIsA400NamingTheKeyAndAValidUploadBesideItIsTaken() {
        Map<String, Object> tooMany = new HashMap<>();
        IntStream.range(0, 33).forEach(i -> tooMany.put("k" + i, "v"));
        List<Object[]> cases = List.of(
                new Object[] {Map.of("path", "docs/"), "'path' is a source field"},
                new Object[] {Map.of("Title", "T"), "'Title' is in another case a source field"},
                new Object[] {Map.of("MEDIATYPE", "x"), "'MEDIATYPE' is in another case a source field"},
                new Object[] {Map.of("team", Map.of("name", "payments")), "nested objects are not allowed"},
                new Object[] {Map.of("team", "x".repeat(1025)), "at most 1024"},
                new Object[] {tooMany, "at most 32"},
                new Object[] {Map.of("a.b", "x"), "'a.b' is not a plain name"},
                new Object[] {Map.of("$where", "1"), "is not a plain name"},
                new Object[] {Map.of("'] or 1=1", "x"), "is not a plain name"},
                new Object[] {Map.of("n}) DETACH DELETE n //", "x"), "is not a plain name"},
                new Object[] {Map.of("k".repeat(65), "x"), "at most 64"},
                new Object[] {Map.of("flag", true), "a boolean"},
                new Object[] {Map.of("tags", List.of("a", 1)), "lists hold strings only"});
        for (Object[] bad : cases) {
            Map<String, Object> body = Map.of("collection", COLLECTION, "title", "t", "text", "hello", "metadata", bad[0]);
            given().contentType(ContentType.JSON).body(body).post("/api/documents").then()
                    .statusCode(400).body("error", equalTo("bad_request")).body("message", containsString((String) bad[1]));
        }
        given().multiPart("metadata", "{\"team\": ", "application/json")
                .multiPart("files", "a.txt", "hello".getBytes(StandardCharsets.UTF_8), "text/plain")
                .post("/api/documents").then().statusCode(400).body("message", containsString("'metadata' is not valid JSON"));
        given().multiPart("metadata", "[\"team\"]", "application/json")
                .multiPart("files", "a.txt", "hello".getBytes(StandardCharsets.UTF_8), "text/plain")
                .post("/api/documents").then().statusCode(400).body("message", containsString("must be a JSON object"));

        given().contentType(ContentType.JSON).body(Map.of("collection", COLLECTION, "title", "ok", "text", "hello",
                "metadata", Map.of("team", "payments", "tags", List.of("a")))).post("/api/documents").then().statusCode(202);
    }

    /** {@code keys} keys of 8 values of 1000 characters: 8 keys are 64,249 bytes as JSON (under the 65,536 cap), 9 are 72,280. */
    private static Map<String, Object> sizedMetadata(int keys) {
        Map<String, Object> metadata = new java.util.LinkedHashMap<>();
        IntStream.range(0, keys).forEach(i -> metadata.put("k" + i, java.util.Collections.nCopies(8, ("v" + i).repeat(500))));
        return metadata;
    }

    /** The whole of a document's caller metadata is capped: a 400 on both uploads, a dead letter for the event; just under goes through. */
    @Test
    void metadataOverTheTotalCapIsRefusedOnEveryWayInAndJustUnderIsStored() throws Exception {
        String cap = "at most " + dev.openrag.schemas.Metadata.MAX_TOTAL_BYTES + " are allowed in all";
        given().contentType(ContentType.JSON).body(Map.of("collection", COLLECTION, "title", "t", "text", "hello",
                "metadata", sizedMetadata(9))).post("/api/documents").then()
                .statusCode(400).body("error", equalTo("bad_request")).body("message", containsString("field 'metadata'"))
                .body("message", containsString(cap));
        String overJson = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(sizedMetadata(9));
        given().multiPart("metadata", overJson, "application/json")
                .multiPart("files", "capped.txt", "hello".getBytes(StandardCharsets.UTF_8), "text/plain")
                .post("/api/documents").then().statusCode(400).body("error", equalTo("bad_request")).body("message", containsString(cap));
        produce("meta-evt-over-cap", new EventCodec().toJson(event("meta-evt-over-cap", sizedMetadata(9))));
        List<String> dead = dev.openrag.ingest.IngestTestSupportAccess.readUntil(Topics.INGEST_DLQ, "meta-evt-over-cap", Duration.ofSeconds(60));
        assertThat(dead.get(0)).contains("$.metadata").contains(cap);

        // controls, just under the cap on each way in: taken and stored whole
        String jsonJob = given().contentType(ContentType.JSON).body(Map.of("collection", COLLECTION, "title", "under cap",
                "text", "Kept whole.", "uri", "notes://under-cap", "metadata", sizedMetadata(8)))
                .post("/api/documents").then().statusCode(202).extract().path("jobId");
        String underJson = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(sizedMetadata(8));
        String multipartJob = given().multiPart("collection", COLLECTION).multiPart("metadata", underJson, "application/json")
                .multiPart("files", "under-cap.txt", "Kept whole too.".getBytes(StandardCharsets.UTF_8), "text/plain")
                .post("/api/documents").then().statusCode(202).extract().path("jobId");
        assertThat(awaitJob(jsonJob).getString("state")).isEqualTo("completed");
        assertThat(awaitJob(multipartJob).getString("state")).isEqualTo("completed");
        assertThat(documentNode(dev.openrag.schemas.Ids.documentIdFromUri("upload://under-cap.txt")).get("meta_s_k7")
                .asList(Value::asString)).hasSize(8);
        produce("meta-evt-under-cap", new EventCodec().toJson(event("meta-evt-under-cap", sizedMetadata(8))));
        long deadline = System.currentTimeMillis() + 120_000;
        while (System.currentTimeMillis() < deadline && documentNodeOrNull("meta-evt-under-cap", "meta_s_k7") == null) {
            Thread.sleep(300);
        }
        assertThat(documentNode("meta-evt-under-cap").get("meta_s_k7").asList(Value::asString)).hasSize(8);
    }

    /**
     * A multipart {@code metadata} part over what a form field may take (1 MiB) is refused before it is read whole: a 413
     * with a JSON body naming the part and both limits, as every other error. Just under it, the part is read and the
     * metadata cap answers with its own 400; file parts are judged by the document limit only.
     */
    @Test
    void aMetadataPartOverTheFormFieldLimitIsAJson413NamingItAndJustUnderIsTheCapsOwn400() throws Exception {
        int formLimit = ConfigProvider.getConfig().getValue("quarkus.http.limits.max-form-attribute-size",
                io.quarkus.runtime.configuration.MemorySize.class).asBigInteger().intValueExact();
        String over = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(wideMetadata(17));
        String under = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(wideMetadata(16));
        assertThat(over.length()).isGreaterThan(formLimit);
        assertThat(under.length()).isLessThan(formLimit).isGreaterThan(dev.openrag.schemas.Metadata.MAX_TOTAL_BYTES);
        for (String type : List.of("application/json", "text/plain")) {
            given().multiPart("collection", COLLECTION).multiPart("metadata", over, type)
                    .multiPart("files", "wide.txt", "hello".getBytes(StandardCharsets.UTF_8), "text/plain")
                    .post("/api/documents").then().statusCode(413).contentType(ContentType.JSON)
                    .body("error", equalTo("too_large"))
                    .body("message", containsString("'metadata'"))
                    .body("message", containsString(String.valueOf(formLimit)))
                    .body("message", containsString("quarkus.http.limits.max-form-attribute-size"))
                    .body("message", containsString("at most " + dev.openrag.schemas.Metadata.MAX_TOTAL_BYTES));
        }
        given().multiPart("collection", COLLECTION).multiPart("metadata", under, "application/json")
                .multiPart("files", "wide.txt", "hello".getBytes(StandardCharsets.UTF_8), "text/plain")
                .post("/api/documents").then().statusCode(400).contentType(ContentType.JSON)
                .body("message", containsString("at most " + dev.openrag.schemas.Metadata.MAX_TOTAL_BYTES + " are allowed in all"));
        // the controls: a file part is no form field, whatever its size: judged by the document limit alone (the tests' is
        // the form field's 1 MiB), taken just under it and refused past it with that limit's own reason
        long documentLimit = ConfigProvider.getConfig().getValue("openrag.ingest.max-document-bytes", Long.class);
        given().multiPart("collection", COLLECTION).multiPart("metadata", "{\"team\": \"wide\"}", "application/json")
                .multiPart("files", "wide-file.txt", "w".repeat((int) documentLimit - 1).getBytes(StandardCharsets.UTF_8), "text/plain")
                .post("/api/documents").then().statusCode(202);
        given().multiPart("collection", COLLECTION).multiPart("metadata", "{\"team\": \"wide\"}", "application/json")
                .multiPart("files", "wider-file.txt", "w".repeat(over.length()).getBytes(StandardCharsets.UTF_8), "text/plain")
                .post("/api/documents").then().statusCode(413).contentType(ContentType.JSON)
                .body("message", containsString("openrag.ingest.max-document-bytes"))
                .body("message", org.hamcrest.Matchers.not(containsString("max-form-attribute-size")));
    }

    /** {@code keys} keys of 64 distinct values of 1000 characters: 16 keys are just under 1 MiB as JSON, 17 just over. */
    private static Map<String, Object> wideMetadata(int keys) {
        Map<String, Object> metadata = new java.util.LinkedHashMap<>();
        IntStream.range(0, keys).forEach(i -> metadata.put("k" + i, IntStream.range(0, 64)
                .mapToObj(item -> String.format("%04d", item) + "x".repeat(996)).toList()));
        return metadata;
    }

    private static DocumentArrived event(String documentId, Map<String, Object> metadata) {
        return new DocumentArrived(EventEnvelope.CURRENT_SCHEMA_VERSION, "evt-" + documentId, documentId, "job-" + documentId,
                COLLECTION, new Source("producer", "s3://bucket/" + documentId + ".md"), "Event doc", "text/markdown",
                "# Event\nA document written by a plain Kafka producer.", DocumentArrived.TEXT, null, metadata);
    }

    private static void produce(String key, String value) throws Exception {
        java.util.Properties properties = new java.util.Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
            producer.send(new ProducerRecord<>(Topics.DOCUMENTS_ARRIVED, key, value)).get();
        }
    }

    private static JsonPath awaitJob(String jobId) {
        return dev.openrag.ingest.IngestTestSupportAccess.awaitJob(jobId, Duration.ofSeconds(120));
    }

    private Map<String, Value> documentNode(String documentId) {
        try (Session session = driver.session()) {
            List<Map<String, Value>> found = session.run("MATCH (d:Document {collection: $c, documentId: $id}) RETURN d",
                    Map.of("c", COLLECTION, "id", documentId)).list(r -> {
                        Map<String, Value> properties = new HashMap<>();
                        r.get("d").asNode().keys().forEach(k -> properties.put(k, r.get("d").asNode().get(k)));
                        return properties;
                    });
            assertThat(found).as("document " + documentId).hasSize(1);
            return found.get(0);
        }
    }

    private Value documentNodeOrNull(String documentId, String property) {
        try (Session session = driver.session()) {
            List<Value> found = session.run("MATCH (d:Document {collection: $c, documentId: $id}) RETURN d[$p] AS v",
                    Map.of("c", COLLECTION, "id", documentId, "p", property)).list(r -> r.get("v"));
            return found.isEmpty() || found.get(0).isNull() ? null : found.get(0);
        }
    }
}
