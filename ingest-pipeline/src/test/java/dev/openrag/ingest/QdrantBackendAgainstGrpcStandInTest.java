package dev.openrag.ingest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.QdrantGrpcStandIn;
import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.qdrant.client.grpc.JsonWithInt;
import io.restassured.path.json.JsonPath;

/**
 * The pipeline with {@code openrag.vectors.backend=qdrant}: the Qdrant sink writes every chunk
 * (through the real io.qdrant client) to a Qdrant gRPC STAND-IN (no Qdrant runs here; compose.yaml
 * runs the real one), the job waits for it, stats count it, and a delete removes it there too.
 */
@QuarkusTest
@QuarkusTestResource(value = LocalStackTestResource.class, restrictToAnnotatedClass = true)
@QuarkusTestResource(value = QdrantBackendAgainstGrpcStandInTest.StandIn.class, restrictToAnnotatedClass = true)
class QdrantBackendAgainstGrpcStandInTest {

    /** Starts the stand-in and switches the app to the Qdrant backend with its sink on. */
    public static class StandIn implements QuarkusTestResourceLifecycleManager {

        static QdrantGrpcStandIn qdrant;

        @Override
        public Map<String, String> start() {
            try {
                qdrant = new QdrantGrpcStandIn();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Map.of("openrag.vectors.backend", "qdrant", "openrag.qdrant.port", Integer.toString(qdrant.port()),
                    "mp.messaging.incoming.embedded-qdrant.enabled", "true",
                    "mp.messaging.incoming.deleted-qdrant.enabled", "true");
        }

        @Override
        public void stop() {
            qdrant.close();
        }
    }

    @Test
    void chunksReachQdrantAndLeaveItWhenTheDocumentIsDeleted() {
        String collection = "qdrant-e2e";
        JsonPath accepted = given().contentType(ContentType.JSON)
                .body(IngestTestSupport.textDocument(collection, "notes://qdrant.md", "Qdrant notes",
                        "# Vectors\n\nQdrant keeps one collection per OpenRAG collection.\n\n# Points\n\nPoint ids are name-based UUIDs of chunk ids."))
                .post("/api/documents").then().statusCode(202).extract().jsonPath();
        JsonPath job = IngestTestSupport.awaitJob(accepted.getString("jobId"), Duration.ofSeconds(120));
        assertThat(job.getString("state")).isEqualTo("completed");
        assertThat(job.getInt("stages.sink-qdrant.done")).isEqualTo(1);

        JsonPath stats = IngestTestSupport.stats(collection);
        long chunks = stats.getLong("chunks.opensearch");
        assertThat(chunks).isPositive();
        assertThat(stats.getLong("chunks.qdrant")).isEqualTo(chunks);

        given().delete("/api/documents/" + accepted.getString("documentIds[0]") + "?collection=" + collection).then().statusCode(202);
        long deadline = System.currentTimeMillis() + 60_000;
        while (IngestTestSupport.stats(collection).getLong("chunks.qdrant") > 0) {
            assertThat(System.currentTimeMillis()).as("qdrant points deleted").isLessThan(deadline);
            IngestTestSupport.sleep(300);
        }
    }

    /**
     * A re-upload that changes only metadata, with Qdrant as the vector backend: the points' payload
     * carries the new metadata (set through the real client's set-payload call), their vectors are
     * the ones written before, no point is upserted again and nothing is embedded again. A changed
     * text is the control: embedded and upserted again.
     */
    @Test
    void aMetadataOnlyChangeUpdatesTheQdrantPayloadWithoutEmbeddingAgain() {
        String collection = "qdrant-meta";
        String text = "# Kestrels\n\nKestrels hover before they stoop.\n\n# Owls\n\nOwls hunt at night.";
        JsonPath first = upload(collection, text, Map.of("team", "birds", "year", 2025));
        String documentId = first.getString("documentIds[0]");
        QdrantGrpcStandIn qdrant = StandIn.qdrant;
        Map<String, List<Float>> vectors = qdrant.vectors(collection, documentId);
        assertThat(vectors).isNotEmpty();
        assertThat(metadata(qdrant, collection, documentId)).allSatisfy(metadata ->
                assertThat(metadata.get("team").getStringValue()).isEqualTo("birds"));
        long upserted = qdrant.upserted();

        JsonPath second = upload(collection, text, Map.of("team", "raptors", "tags", List.of("field", "2026-04-01")));
        JsonPath job = IngestTestSupport.awaitJob(second.getString("jobId"), Duration.ofSeconds(120));
        assertThat(job.getString("state")).isEqualTo("completed");
        assertThat(job.getList("warnings.message", String.class)).anyMatch(m -> m.contains("only its metadata was updated"));
        assertThat(embedded(job)).as("not embedded again").isZero();
        assertThat(metadata(qdrant, collection, documentId)).hasSize(vectors.size()).allSatisfy(metadata -> {
            assertThat(metadata.get("team").getStringValue()).isEqualTo("raptors");
            assertThat(metadata).as("what the new version leaves out is gone").doesNotContainKey("year");
            assertThat(metadata.get("tags").getListValue().getValuesList()).extracting(JsonWithInt.Value::getStringValue)
                    .containsExactly("field", "2026-04-01");
        });
        assertThat(qdrant.vectors(collection, documentId)).as("the vectors written before").isEqualTo(vectors);
        assertThat(qdrant.upserted()).as("no point written again").isEqualTo(upserted);

        JsonPath edited = upload(collection, text + "\n\nThey nest in towers.", Map.of("team", "raptors"));
        JsonPath editedJob = IngestTestSupport.awaitJob(edited.getString("jobId"), Duration.ofSeconds(120));
        assertThat(embedded(editedJob)).as("control: a changed text is embedded again").isEqualTo(1);
        assertThat(qdrant.upserted()).isGreaterThan(upserted);
    }

    private static JsonPath upload(String collection, String text, Map<String, Object> metadata) {
        Map<String, Object> body = new HashMap<>(IngestTestSupport.textDocument(collection, "notes://kestrels.md", "Kestrels", text));
        body.put("metadata", metadata);
        JsonPath accepted = given().contentType(ContentType.JSON).body(body).post("/api/documents").then().statusCode(202).extract().jsonPath();
        assertThat(IngestTestSupport.awaitJob(accepted.getString("jobId"), Duration.ofSeconds(120)).getString("state")).isEqualTo("completed");
        return accepted;
    }

    private static int embedded(JsonPath job) {
        Integer done = job.get("stages.embed.done");
        return done == null ? 0 : done;
    }

    private static List<Map<String, JsonWithInt.Value>> metadata(QdrantGrpcStandIn qdrant, String collection, String documentId) {
        return qdrant.payloads(collection, documentId).values().stream()
                .map(payload -> payload.get("metadata").getStructValue().getFieldsMap()).toList();
    }
}
