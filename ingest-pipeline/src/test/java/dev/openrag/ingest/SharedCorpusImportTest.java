package dev.openrag.ingest;

import static dev.openrag.ingest.IngestTestSupport.awaitJob;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.localstack.test.SharedCorpus;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/** The shared evaluation corpus (90 files, 737 pre-made chunks) imports unchanged into both stores. */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class SharedCorpusImportTest {

    @Inject
    Driver driver;

    @Test
    void all737ChunksArriveInBothStoresWithContextsAndVectors() throws Exception {
        // not logged on a failure: RestAssured would pretty-print the 1.1 MB corpus for that log first (3 s)
        JsonPath accepted = given().config(io.restassured.RestAssured.config().logConfig(io.restassured.config.LogConfig.logConfig()))
                .contentType(ContentType.JSON).body(Files.readString(SharedCorpus.FILE))
                .post("/api/corpus?collection=codebase").then().statusCode(202).extract().jsonPath();
        assertThat(accepted.getInt("documents")).isEqualTo(90);
        assertThat(accepted.getInt("chunks")).isEqualTo(737);

        JsonPath job = awaitJob(accepted.getString("jobId"), Duration.ofMinutes(5));
        assertThat(job.getString("state")).isEqualTo("completed");
        assertThat(job.getInt("documents.done")).isEqualTo(90);

        JsonPath stats = IngestTestSupport.stats("codebase");
        assertThat(stats.getLong("documents")).isEqualTo(90);
        assertThat(stats.getLong("chunks.opensearch")).isEqualTo(737);
        assertThat(stats.getLong("chunks.neo4j")).isEqualTo(737);

        try (var session = driver.session()) {
            // the first golden chunk of the dev queries: documentId = original_uuid, index = original_index
            var chunk = session.run("""
                    MATCH (c:Chunk {collection: 'codebase', documentId: $id, chunkIndex: 0})
                    RETURN c.text AS text, c.context AS context, size(c.embedding) AS dimension""",
                    Map.of("id", "5e4c01057a10732d34784af2a97bee9d173863f043b9901de8ef7f57bc590145")).single();
            assertThat(chunk.get("text").asString()).startsWith("//! Executor for differential fuzzing.");
            assertThat(chunk.get("context").asString()).contains("(rust)").contains("differential fuzzing");
            assertThat(chunk.get("dimension").asInt()).isEqualTo(384);
            long withoutVector = session.run("MATCH (c:Chunk {collection: 'codebase'}) WHERE c.embedding IS NULL RETURN count(c) AS n")
                    .single().get("n").asLong();
            assertThat(withoutVector).isZero();
            // issue 61: the pre-made chunks are located in their documents' texts by exact match, every one
            var spans = session.run("""
                    MATCH (t:DocumentText {collection: 'codebase'})
                    RETURN count(t) AS texts, sum(size(t.chunkIndexes)) AS spans""").single();
            assertThat(spans.get("texts").asLong()).isEqualTo(90);
            assertThat(spans.get("spans").asLong()).isEqualTo(737);
        }
    }
}
