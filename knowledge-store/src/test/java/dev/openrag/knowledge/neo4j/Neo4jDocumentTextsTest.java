package dev.openrag.knowledge.neo4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Session;
import org.neo4j.driver.summary.Plan;

import dev.openrag.knowledge.browse.ChunkPlace;
import dev.openrag.knowledge.browse.DocumentText;
import dev.openrag.knowledge.port.ChunkLookup;
import dev.openrag.knowledge.port.DocumentTexts;
import dev.openrag.localstack.Engine;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.LocalStackExtension.WithEngines;

/**
 * Issue 72, texts' places against real Neo4j: a reindex pages through a collection's texts by the index
 * on (collection, documentId), never scanning every text for each batch; a chunk its text does not hold
 * is placed elsewhere; a text placed before such chunks were gets theirs from the stored chunks of its
 * version, and one whose stored chunks are of another version is left as not knowing them, until a later
 * reindex finds its version stored.
 */
@WithEngines({Engine.NEO4J})
class Neo4jDocumentTextsTest {

    private static Driver driver;
    private static Neo4jDocumentTexts texts;

    @BeforeAll
    static void connect(StackConfig config) {
        driver = GraphDatabase.driver(config.neo4jUri(), AuthTokens.none());
        Neo4jSchema.bootstrap(driver, 4);
        Neo4jSchema.bootstrap(driver, 4); // idempotent
        texts = new Neo4jDocumentTexts(driver);
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    @Test
    void theReindexReadsTextsThroughTheirCollectionsIndexInItsOrder() {
        try (Session session = driver.session()) {
            assertThat(session.run("SHOW INDEXES YIELD name, labelsOrTypes, properties WHERE name = 'document_text_collection'"
                    + " RETURN labelsOrTypes, properties").single().asMap())
                    .containsEntry("labelsOrTypes", List.of("DocumentText")).containsEntry("properties", List.of("collection", "documentId"));
            Plan plan = session.run("EXPLAIN " + Neo4jDocumentTexts.UNPLACED, Map.of("collection", "c", "after", "", "batch", 10))
                    .consume().plan();
            List<String> operators = operators(plan);
            assertThat(operators).as("the plan: %s", operators).anyMatch(operator -> operator.startsWith("NodeIndexSeek"))
                    .noneMatch(operator -> operator.startsWith("NodeByLabelScan") || operator.startsWith("AllNodesScan"))
                    .noneMatch(operator -> operator.startsWith("Sort") || operator.startsWith("Top") || operator.startsWith("PartialSort"));
        }
    }

    private static List<String> operators(Plan plan) {
        List<String> operators = new ArrayList<>(List.of(plan.operatorType()));
        plan.children().forEach(child -> operators.addAll(operators(child)));
        return operators;
    }

    @Test
    void aReindexPlacesEveryUnplacedTextOnceAcrossBatches() {
        String collection = "texts-batches";
        for (int i = 0; i < 25; i++) {
            String text = "Lemmings " + i + " migrate.";
            texts.put(new DocumentText(collection, String.format("d%02d", i), "v", text, List.of(), List.of(),
                    List.of(new DocumentText.ChunkSpan(0, 0, text.length()))));
        }
        texts.put(new DocumentText("texts-batches-other", "d00", "v", "Voles.", List.of(), List.of(),
                List.of(new DocumentText.ChunkSpan(0, 0, 6))));
        try (Session session = driver.session()) {
            session.run("MATCH (t:DocumentText {collection: $collection}) WHERE t.documentId <> 'd07'"
                    + " REMOVE t.placesVersion WITH t MATCH (p:ChunkPlace {uid: t.uid}) DELETE p",
                    Map.of("collection", collection)).consume();
            session.run("MATCH (t:DocumentText {collection: 'texts-batches-other'}) REMOVE t.placesVersion").consume();
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            if (i != 7) {
                expected.add(String.format("d%02d", i));
            }
        }
        assertThat(texts.placeMissing(collection)).as("over three batches, in order; the placed one and another collection's left")
                .isEqualTo(expected);
        assertThat(texts.placeMissing(collection)).isEmpty();
        DocumentTexts.Places places = texts.places(collection, List.of(new ChunkLookup.ChunkKey("d12", 0)));
        assertThat(places.documents().get("d12")).isEqualTo(new DocumentTexts.Kept("v", true, true));
        assertThat(places.places().get(new ChunkLookup.ChunkKey("d12", 0)).holds("Lemmings 12 migrate.")).isTrue();
    }

    @Test
    void aChunkTheTextDoesNotHoldIsPlacedElsewhereAndOldTextsGetTheirsFromTheStoredChunks() {
        String collection = "texts-elsewhere";
        String spec = "openapi: 3.0.3\npaths:\n  /otters:\n    get:\n      summary: Lists otters\n";
        String rendered = "GET /otters: lists the otters.";
        try (Session session = driver.session()) {
            for (String documentId : List.of("api", "api-moved-on")) {
                session.run("""
                        CREATE (:Document {collection: $collection, documentId: $documentId, uid: $uid, contentHash: $hash})
                        CREATE (:Chunk {collection: $collection, documentId: $documentId, chunkIndex: 0, text: 'openapi: 3.0.3'})
                        CREATE (:Chunk {collection: $collection, documentId: $documentId, chunkIndex: 1, text: $rendered})
                        CREATE (:Chunk {collection: $collection, documentId: $documentId, chunkIndex: 2, text: 'paths:'})""",
                        Map.of("collection", collection, "documentId", documentId, "uid", Neo4jGraphStore.documentUid(collection, documentId),
                                "hash", documentId.equals("api") ? "v1" : "v2", "rendered", rendered)).consume();
            }
        }
        for (String documentId : List.of("api", "api-moved-on")) {
            texts.put(new DocumentText(collection, documentId, "v1", spec, List.of(), List.of(), List.of(new DocumentText.ChunkSpan(0, 0, 14)),
                    List.of(new DocumentText.Elsewhere(1, ChunkPlace.hash(rendered)))));
        }
        List<ChunkLookup.ChunkKey> asked = List.of(new ChunkLookup.ChunkKey("api", 1), new ChunkLookup.ChunkKey("api-moved-on", 1));
        DocumentTexts.Places written = texts.places(collection, asked);
        assertThat(written.places().get(asked.get(0))).satisfies(place -> {
            assertThat(place.isElsewhere()).isTrue();
            assertThat(place.holds(rendered)).isTrue();
            assertThat(place.holds("GET /otters: lists the sea otters.")).isFalse();
        });
        assertThat(written.documents().get("api")).isEqualTo(new DocumentTexts.Kept("v1", true, true));
        assertThat(texts.get(collection, "api").orElseThrow().elsewhere()).containsExactly(new DocumentText.Elsewhere(1, ChunkPlace.hash(rendered)));

        // as a version that placed only the chunks in the text left them
        try (Session session = driver.session()) {
            session.run("""
                    MATCH (t:DocumentText {collection: $collection}) REMOVE t.placesComplete, t.elsewhereIndexes, t.elsewhereHashes
                    WITH t MATCH (p:ChunkPlace {uid: t.uid, index: 1}) DELETE p""", Map.of("collection", collection)).consume();
        }
        DocumentTexts.Places before = texts.places(collection, asked);
        assertThat(before.places()).isEmpty();
        assertThat(before.documents().get("api")).isEqualTo(new DocumentTexts.Kept("v1", true, false));
        assertThat(texts.get(collection, "api").orElseThrow().knowsEveryChunk()).isFalse();

        assertThat(texts.placeMissing(collection)).containsExactly("api", "api-moved-on");
        DocumentTexts.Places after = texts.places(collection, asked);
        assertThat(after.places().get(asked.get(0))).satisfies(place -> assertThat(place.holds(rendered)).isTrue());
        assertThat(after.documents().get("api")).isEqualTo(new DocumentTexts.Kept("v1", true, true));
        assertThat(texts.get(collection, "api").orElseThrow().elsewhere()).as("chunk 2's text is in the spec: no place")
                .containsExactly(new DocumentText.Elsewhere(1, ChunkPlace.hash(rendered)));
        // the control: its stored chunks are another version's, so which of the text's chunks lie elsewhere is not known
        assertThat(after.places()).doesNotContainKey(asked.get(1));
        assertThat(after.documents().get("api-moved-on")).isEqualTo(new DocumentTexts.Kept("v1", true, false));
        assertThat(texts.placeMissing(collection)).as("each placed once; one still not knowing its chunks elsewhere not rewritten").isEmpty();
        assertThat(texts.places(collection, asked).documents().get("api-moved-on")).isEqualTo(new DocumentTexts.Kept("v1", true, false));

        // the graph comes to hold the text's version: a later reindex completes the text marked as not knowing them
        try (Session session = driver.session()) {
            session.run("MATCH (d:Document {uid: $uid}) SET d.contentHash = 'v1'",
                    Map.of("uid", Neo4jGraphStore.documentUid(collection, "api-moved-on"))).consume();
        }
        assertThat(texts.placeMissing(collection)).containsExactly("api-moved-on");
        DocumentTexts.Places completed = texts.places(collection, asked);
        assertThat(completed.documents().get("api-moved-on")).isEqualTo(new DocumentTexts.Kept("v1", true, true));
        assertThat(completed.places().get(asked.get(1))).satisfies(place -> {
            assertThat(place.isElsewhere()).isTrue();
            assertThat(place.holds(rendered)).isTrue();
        });
        // chunk 2's text is in the spec, though not at a span: no place, as the text sink gives it none
        assertThat(texts.get(collection, "api-moved-on").orElseThrow().elsewhere())
                .containsExactly(new DocumentText.Elsewhere(1, ChunkPlace.hash(rendered)));
        assertThat(texts.placeMissing(collection)).isEmpty();
    }

    /** Issue 72: a search's hits read their places and their documents' metadata in one round trip. */
    @Test
    void placesComeWithTheDocumentsMetadataWhetherOrNotATextIsKept() {
        String collection = "texts-metadata";
        Neo4jGraphStore graph = new Neo4jGraphStore(driver);
        Neo4jDocumentMetadata metadata = new Neo4jDocumentMetadata(driver);
        for (String id : List.of("texted", "untexted", "bare")) {
            graph.upsertDocument(collection, id, "T " + id, "file:///" + id, "h", List.of(), List.of());
        }
        metadata.replaceMetadata(collection, "texted", Map.of("team", "payments", "year", 2026));
        metadata.replaceMetadata(collection, "untexted", Map.of("tags", List.of("a", "b")));
        texts.put(new DocumentText(collection, "texted", "v1", "Some text.", List.of(), List.of(),
                List.of(new DocumentText.ChunkSpan(0, 0, 10))), 1_000);
        List<ChunkLookup.ChunkKey> asked = List.of(new ChunkLookup.ChunkKey("texted", 0), new ChunkLookup.ChunkKey("untexted", 0),
                new ChunkLookup.ChunkKey("bare", 0), new ChunkLookup.ChunkKey("absent", 0));

        DocumentTexts.Places places = texts.places(collection, asked);

        assertThat(places.metadata()).as("as metadataOf gives it").isEqualTo(metadata.metadataOf(collection,
                List.of("texted", "untexted", "bare", "absent")));
        assertThat(places.metadata()).containsOnlyKeys("texted", "untexted");
        assertThat(places.metadata().get("texted")).containsEntry("team", "payments");
        assertThat(places.documents()).containsOnlyKeys("texted");
        assertThat(places.places()).containsOnlyKeys(new ChunkLookup.ChunkKey("texted", 0));
        assertThat(texts.places("texts-metadata-other", asked).metadata()).as("another collection's documents").isEmpty();
    }

    @Test
    void aDeleteRemovesTheChunksElsewhereWithTheText() {
        String collection = "texts-deleted";
        texts.put(new DocumentText(collection, "gone", "v1", "Text.", List.of(), List.of(), List.of(),
                List.of(new DocumentText.Elsewhere(0, ChunkPlace.hash("Rendered.")))), 1_000);
        texts.delete(collection, "gone", 2_000);
        assertThat(texts.places(collection, List.of(new ChunkLookup.ChunkKey("gone", 0))).documents()).isEmpty();
        try (Session session = driver.session()) {
            assertThat(session.run("MATCH (p:ChunkPlace {uid: $uid}) RETURN count(p) AS n",
                    Map.of("uid", Neo4jGraphStore.documentUid(collection, "gone"))).single().get("n").asLong()).isZero();
            assertThat(session.run("MATCH (t:DocumentText {uid: $uid}) RETURN t.elsewhereHashes AS hashes, t.placesComplete AS complete",
                    Map.of("uid", Neo4jGraphStore.documentUid(collection, "gone"))).single().asMap())
                    .containsEntry("hashes", null).containsEntry("complete", null);
        }
    }
}
