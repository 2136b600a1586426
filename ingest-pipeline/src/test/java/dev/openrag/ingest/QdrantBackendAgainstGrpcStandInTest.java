package dev.openrag.ingest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.QdrantGrpcStandIn;
import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
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

        private QdrantGrpcStandIn qdrant;

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
}
