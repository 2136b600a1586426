package dev.openrag.ingest;

import static dev.openrag.ingest.IngestTestSupport.awaitJob;
import static dev.openrag.ingest.IngestTestSupport.textDocument;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;

import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.knowledge.port.VectorIndex;
import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/** OpenAPI specs become an API graph and searchable operations; headed documents get a summarised section tree. */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class StructuredKnowledgeTest {

    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(120);

    @Inject
    Driver driver;

    @Inject
    LexicalIndex lexical;

    @Inject
    VectorIndex vectors;

    @Inject
    Embedder embedder;

    @Test
    void thePetstoreSpecIsStoredAsExactlyItsApiGraphAndDeletedWithItsDocument() throws IOException {
        JsonPath accepted = given().multiPart("collection", "api-petstore")
                .multiPart("files", "petstore.yaml", resource("petstore.yaml"), "application/x-yaml")
                .post("/api/documents").then().statusCode(202).extract().jsonPath();
        JsonPath job = awaitJob(accepted.getString("jobId"), JOB_TIMEOUT);
        assertThat(job.getString("state")).isEqualTo("completed");
        assertThat(job.getList("warnings")).isEmpty();
        String documentId = accepted.getList("documentIds", String.class).get(0);

        try (var session = driver.session()) {
            List<String> nodes = session.run("""
                    MATCH (n) WHERE (n:Api OR n:Operation OR n:Example OR n:DocChunk) AND n.documentUid = 'api-petstore/' + $id
                       OR n:Entity AND n.collection = 'api-petstore' AND n.type IN ['schema', 'tag']
                    RETURN labels(n)[0] + ' ' + n.name AS node""", Map.of("id", documentId)).list(r -> r.get("node").asString());
            assertThat(nodes).containsExactlyInAnyOrder("Api Swagger Petstore", "Operation listPets", "Operation createPets",
                    "Operation showPetById", "Entity pets", "Entity Pet", "Entity Pets", "Entity Error");
            List<String> edges = session.run("""
                    MATCH (a)-[r:HAS_OPERATION|HAS_EXAMPLE|HAS_DOCUMENTATION|PART_OF|RELATES_TO]->(b)
                    WHERE a.collection = 'api-petstore'
                    RETURN a.name + ' -' + type(r) + '-> ' + b.name AS edge""").list(r -> r.get("edge").asString());
            assertThat(edges).containsExactlyInAnyOrder(
                    "Swagger Petstore -HAS_OPERATION-> listPets", "Swagger Petstore -HAS_OPERATION-> createPets",
                    "Swagger Petstore -HAS_OPERATION-> showPetById",
                    "pets -PART_OF-> Swagger Petstore", "Pet -PART_OF-> Swagger Petstore", "Pets -PART_OF-> Swagger Petstore",
                    "Error -PART_OF-> Swagger Petstore",
                    "listPets -PART_OF-> pets", "createPets -PART_OF-> pets", "showPetById -PART_OF-> pets",
                    "listPets -RELATES_TO-> Pets", "listPets -RELATES_TO-> Error", "createPets -RELATES_TO-> Pet",
                    "createPets -RELATES_TO-> Error", "showPetById -RELATES_TO-> Pet", "showPetById -RELATES_TO-> Error",
                    "Pets -RELATES_TO-> Pet");
            Record operation = session.run("""
                    MATCH (o:Operation {operationId: 'showPetById'})-[:HAS_CHUNK]->(ch:Chunk)
                    RETURN o.method AS method, o.path AS path, ch.text AS text, size(ch.embedding) AS dimension""").single();
            assertThat(operation.get("method").asString()).isEqualTo("GET");
            assertThat(operation.get("path").asString()).isEqualTo("/pets/{petId}");
            assertThat(operation.get("text").asString()).startsWith("GET /pets/{petId} — Info for a specific pet");
            assertThat(operation.get("dimension").asInt()).isEqualTo(384);
            // graph retrieval's seeds by similarity (the tests turn openrag.graph.node-seeds on): words and vectors
            Record seeds = session.run("""
                    MATCH (o:Operation {operationId: 'showPetById'}), (e:Entity {collection: 'api-petstore', name: 'Pets'})
                    RETURN o.words AS operation, size(o.embedding) AS operationDimension, e.words AS entity,
                           size(e.embedding) AS entityDimension""").single();
            assertThat(seeds.get("operation").asString()).isEqualTo("Info for a specific pet. showPetById (show pet by id): GET /pets/{petId}");
            assertThat(seeds.get("operationDimension").asInt()).isEqualTo(384);
            assertThat(seeds.get("entity").asString()).isEqualTo("Pets");
            assertThat(seeds.get("entityDimension").asInt()).isEqualTo(384);

            // issue 72: every chunk has a place; the operations, rendered from the spec and so not in its text, lie elsewhere,
            // known by their own text, so that a hit on one is cited without reading the spec
            String uid = dev.openrag.knowledge.neo4j.Neo4jGraphStore.documentUid("api-petstore", documentId);
            long chunks = session.run("MATCH (ch:Chunk {collection: 'api-petstore', documentId: $id}) RETURN count(ch) AS n",
                    Map.of("id", documentId)).single().get("n").asLong();
            Map<String, Object> text = Map.of();
            for (long until = System.currentTimeMillis() + 60_000; System.currentTimeMillis() < until && !Boolean.TRUE.equals(text.get("complete"));
                 IngestTestSupport.sleep(300)) {
                text = session.run("""
                        OPTIONAL MATCH (t:DocumentText {uid: $uid})
                        RETURN t.placesComplete AS complete, size(t.elsewhereIndexes) AS elsewhere, COUNT { (p:ChunkPlace {uid: $uid}) } AS places""",
                        Map.of("uid", uid)).single().asMap();
            }
            assertThat(text).containsEntry("complete", true).containsEntry("places", chunks);
            assertThat((Long) text.get("elsewhere")).isPositive().isLessThanOrEqualTo(chunks);
            Record place = session.run("""
                    MATCH (o:Operation {operationId: 'showPetById'})-[:HAS_CHUNK]->(ch:Chunk)
                    MATCH (p:ChunkPlace {key: $uid + '#' + ch.chunkIndex})
                    RETURN p.start AS start, p.textHash AS hash, ch.text AS text""", Map.of("uid", uid)).single();
            assertThat(place.get("start").asInt()).isEqualTo(dev.openrag.knowledge.browse.ChunkPlace.NOWHERE);
            assertThat(place.get("hash").asString()).isEqualTo(dev.openrag.knowledge.browse.ChunkPlace.hash(place.get("text").asString()));
        }

        given().delete("/api/documents/" + documentId + "?collection=api-petstore").then().statusCode(202);
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline && apiNodes("api-petstore") > 0) {
            IngestTestSupport.sleep(300);
        }
        assertThat(apiNodes("api-petstore")).as("Api, Operation, Example and DocChunk nodes go with their document").isZero();
    }

    @Test
    void aQuestionInPlainWordsFindsTheOperationThatAnswersIt() throws IOException {
        String jobId = given().multiPart("collection", "api-garden")
                .multiPart("files", "garden.json", resource("garden.json"), "application/json")
                .post("/api/documents").then().statusCode(202).extract().path("jobId");
        assertThat(awaitJob(jobId, JOB_TIMEOUT).getString("state")).isEqualTo("completed");

        String question = "how do I water bed 4 for ten minutes";
        assertThat(lexical.search("api-garden", question, 3).get(0).chunk().text()).startsWith("POST /beds/{bedId}/watering");
        assertThat(vectors.search("api-garden", embedder.embedQuery(question), 3).get(0).chunk().text())
                .startsWith("POST /beds/{bedId}/watering");
        assertThat(lexical.search("api-garden", "soil moisture sensor reading", 3).get(0).chunk().text())
                .startsWith("GET /sensors/{sensorId}/moisture");
        try (var session = driver.session()) {
            List<String> examples = session.run("""
                    MATCH (:Operation {operationId: 'startWatering'})-[:HAS_EXAMPLE]->(x:Example) RETURN x.value AS value ORDER BY value""")
                    .list(r -> r.get("value").asString());
            assertThat(examples).containsExactly("{\"bedId\":4,\"durationMinutes\":10,\"state\":\"running\"}", "{\"durationMinutes\":10}");
            assertThat(session.run("MATCH (:Api {name: 'Garden Irrigation API'})-[:HAS_DOCUMENTATION]->(d:DocChunk) RETURN d.text AS text")
                    .single().get("text").asString()).startsWith("Controls the drip irrigation");
        }
    }

    @Test
    void anInvalidSpecIsIndexedAsPlainTextAndItsJobSaysWhy() {
        String broken = "openapi: 3.0.0\ninfo:\n  title: Broken sprinkler API\npaths: [sprinklerzebra, not a map\n";
        String jobId = given().multiPart("collection", "api-broken")
                .multiPart("files", "broken.yaml", broken.getBytes(StandardCharsets.UTF_8), "application/x-yaml")
                .post("/api/documents").then().statusCode(202).extract().path("jobId");
        JsonPath job = awaitJob(jobId, JOB_TIMEOUT);

        assertThat(job.getString("state")).isEqualTo("completed");
        assertThat(job.getString("warnings[0].stage")).isEqualTo("parse");
        assertThat(job.getString("warnings[0].message")).startsWith("invalid OpenAPI spec: ")
                .contains("line 4").endsWith("the file was indexed as plain text");
        assertThat(lexical.search("api-broken", "sprinklerzebra", 1)).hasSize(1);
        assertThat(apiNodes("api-broken")).isZero();
    }

    @Test
    void nestedHeadingsBecomeASectionTreeWithSummariesAndVectors() {
        String markdown = """
                # Orchard handbook
                How the community orchard is run.

                ## Pruning
                Prune apple trees in late winter, before the buds open.

                ### Tools
                Use sharp bypass secateurs and a pruning saw for branches thicker than a thumb.

                ## Harvest
                Apples are picked from September. Store them in a cool, dark shed.
                """;
        String jobId = given().contentType(ContentType.JSON)
                .body(textDocument("sections", "docs/orchard.md", "Orchard handbook", markdown))
                .post("/api/documents").then().statusCode(202).extract().path("jobId");
        assertThat(awaitJob(jobId, JOB_TIMEOUT).getString("state")).isEqualTo("completed");

        try (var session = driver.session()) {
            List<String> tree = session.run("""
                    MATCH (d:Document {collection: 'sections'})-[:HAS_SECTION*1..6]->(s:Section)
                    OPTIONAL MATCH (parent:Section)-[:HAS_SECTION]->(s)
                    RETURN coalesce(parent.title, 'document') + ' > ' + s.title AS edge""").list(r -> r.get("edge").asString());
            assertThat(tree).containsExactlyInAnyOrder("document > Orchard handbook", "Orchard handbook > Pruning",
                    "Pruning > Tools", "Orchard handbook > Harvest");
            List<Record> sections = session.run("""
                    MATCH (s:Section {collection: 'sections'}) RETURN s.title AS title, s.summary AS summary, size(s.embedding) AS dimension""")
                    .list();
            assertThat(sections).hasSize(4).allSatisfy(section -> {
                assertThat(section.get("summary").asString()).isNotBlank();
                assertThat(section.get("dimension").asInt()).isEqualTo(384);
            });
            String tools = sections.stream().filter(s -> s.get("title").asString().equals("Tools")).findFirst().orElseThrow()
                    .get("summary").asString();
            assertThat(tools).startsWith("Orchard handbook > Pruning > Tools: Use sharp bypass secateurs");
            String pruning = sections.stream().filter(s -> s.get("title").asString().equals("Pruning")).findFirst().orElseThrow()
                    .get("summary").asString();
            assertThat(pruning).as("the most frequent term of the section and its subsection leads its key terms")
                    .contains("\nKey terms: Pruning, ");
            Record document = session.run("""
                    MATCH (d:Document {collection: 'sections'}) RETURN d.summary AS summary, size(d.summaryEmbedding) AS dimension""").single();
            assertThat(document.get("summary").asString()).startsWith("Orchard handbook: ");
            assertThat(document.get("dimension").asInt()).isEqualTo(384);
        }
    }

    private long apiNodes(String collection) {
        try (var session = driver.session()) {
            return session.run("""
                    MATCH (n) WHERE (n:Api OR n:Operation OR n:Example OR n:DocChunk) AND n.collection = $collection
                    RETURN count(n) AS n""", Map.of("collection", collection)).single().get("n").asLong();
        }
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = StructuredKnowledgeTest.class.getResourceAsStream("/openapi/" + name)) {
            return in.readAllBytes();
        }
    }
}
