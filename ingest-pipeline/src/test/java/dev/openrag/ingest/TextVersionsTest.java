package dev.openrag.ingest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;

import dev.openrag.knowledge.browse.DocumentText;
import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.port.DocumentTexts;
import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.DocumentChunked;
import dev.openrag.schemas.DocumentDeleted;
import dev.openrag.schemas.EventCodec;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.Source;
import dev.openrag.schemas.Topics;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * Issue 68: a document's text never goes back to an older version, and a delete wins over a late
 * write. The version is the time the document's version arrived, which every stage carries on as its
 * records' timestamp; here chunked events are written to the topic with the timestamps a replay (a
 * consumer group rewound, a mirrored topic) or a slow stage would deliver them with. And a document
 * stored without its text gets it back, with exact spans, from a reindex.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class TextVersionsTest {

    private static final EventCodec CODEC = new EventCodec();
    private static final String COLLECTION = "text-versions";
    private static final Duration WAIT = Duration.ofMinutes(2);

    @Inject
    DocumentTexts texts;

    @Inject
    Driver driver;

    @Test
    void aReplayedOlderChunkedEventNeverBringsOldTextBack() throws Exception {
        String documentId = "replayed";
        long now = System.currentTimeMillis();
        String older = "Dachse graben nachts. 穴熊は夜に穴を掘る。";
        String newer = "Badgers dig at night, and rest in their setts by day.";
        send(Topics.CHUNKS_CHUNKED, chunked(documentId, older), now - 60_000);
        awaitText(documentId, Optional.of(older));
        send(Topics.CHUNKS_CHUNKED, chunked(documentId, newer), now - 30_000);
        awaitText(documentId, Optional.of(newer));

        RecordMetadata replay = send(Topics.CHUNKS_CHUNKED, chunked(documentId, older), now - 60_000);
        awaitConsumed("openrag-sink-text", replay);
        assertThat(texts.get(COLLECTION, documentId)).as("the replayed older version is not written back")
                .map(DocumentText::text).contains(newer);

        // the control: a version that arrived later still replaces it
        String later = "Badgers dig at night; the sett has many entrances.";
        send(Topics.CHUNKS_CHUNKED, chunked(documentId, later), now);
        awaitText(documentId, Optional.of(later));

        // hostile: a version stamped half an hour ahead (within what the broker takes) counts as handled
        // when it is, so the next one still wins
        String forged = "Forged: stamped half an hour in the future.";
        send(Topics.CHUNKS_CHUNKED, chunked(documentId, forged), System.currentTimeMillis() + Duration.ofMinutes(30).toMillis());
        awaitText(documentId, Optional.of(forged));
        String next = "Badgers, once more: the version after the forged one.";
        send(Topics.CHUNKS_CHUNKED, chunked(documentId, next), System.currentTimeMillis());
        awaitText(documentId, Optional.of(next));
    }

    @Test
    void aDeleteWinsOverALateTextWriteAndALaterVersionComesBack() throws Exception {
        String documentId = "deleted-late";
        long now = System.currentTimeMillis();
        send(Topics.CHUNKS_CHUNKED, chunked(documentId, "Otters hold hands while they sleep."), now - 60_000);
        awaitText(documentId, Optional.of("Otters hold hands while they sleep."));
        send(Topics.DOCUMENTS_DELETED, CODEC.toJson(new DocumentDeleted(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(),
                documentId, "text-versions-delete", COLLECTION)), now - 10_000);
        awaitText(documentId, Optional.empty());

        // a version that arrived before the delete, written late (its stages were slow)
        RecordMetadata late = send(Topics.CHUNKS_CHUNKED, chunked(documentId, "Otters hold hands, and float on their backs."),
                now - 30_000);
        awaitConsumed("openrag-sink-text", late);
        assertThat(texts.get(COLLECTION, documentId)).as("the late write after the delete leaves no text").isEmpty();

        // the control: the document ingested again after the delete has its text again
        send(Topics.CHUNKS_CHUNKED, chunked(documentId, "Otters are back: they hold hands again."), now);
        awaitText(documentId, Optional.of("Otters are back: they hold hands again."));
    }

    /**
     * The conditional writes are one check-and-write each: a late text write and a delete of one
     * document (two consumers, two topics) that run at once must not both pass their checks on the same
     * old time and leave the later commit standing whatever its time. Made deterministic by holding the
     * text's write lock in a transaction of the test's while both start, then letting them go, the
     * delete first: a write that checked before taking the lock would put its older text back after
     * the delete's tombstone. The control: a newer version started the same way still wins over an
     * older delete.
     */
    @Test
    void aLateWriteAndADeleteRacingOnOneTextLeaveTheNewerStanding() throws Exception {
        var pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 4; round++) {
                String documentId = "raced-" + round + "-" + System.nanoTime();
                String text = "Hedgehogs roll into a ball, round " + round + ".";
                texts.put(textOf(documentId, "An older hedgehog text."), 1_000);
                var late = raced(pool, documentId,
                        () -> texts.delete(COLLECTION, documentId, 3_000),
                        () -> texts.put(textOf(documentId, text), 2_000));
                assertThat(late).as("round " + round + ": the write that arrived before the delete stays out").isEmpty();

                // the control: a version newer than the delete is written, raced the same way
                String control = documentId + "-control";
                texts.put(textOf(control, "An older hedgehog text."), 1_000);
                var newer = raced(pool, control,
                        () -> texts.delete(COLLECTION, control, 2_000),
                        () -> texts.put(textOf(control, text), 3_000));
                assertThat(newer).as("round " + round + ": the version newer than the delete stands").contains(text);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A reindex reads a few documents' chunks at a time (a huge collection's chunk texts are never all
     * held at once): with one document a batch, every textless document is rebuilt once, in id order,
     * and the control, a document with its text, is left as it is.
     */
    @Test
    void reindexPagesThroughTheCollectionAFewDocumentsAtATime() {
        String collection = "text-reindex-pages";
        try (Session session = driver.session()) {
            for (String documentId : List.of("p-a", "p-b", "p-c", "p-kept")) {
                session.executeWrite(tx -> tx.run("""
                        CREATE (:Document {collection: $collection, documentId: $documentId, uid: $uid, contentHash: $documentId})
                        CREATE (:Chunk {collection: $collection, documentId: $documentId, chunkIndex: 0, text: 'Voles, ' + $documentId})
                        CREATE (:Chunk {collection: $collection, documentId: $documentId, chunkIndex: 1, text: 'and shrews.'})""",
                        Map.of("collection", collection, "documentId", documentId,
                                "uid", Neo4jGraphStore.documentUid(collection, documentId))).consume());
            }
        }
        DocumentText kept = new DocumentText(collection, "p-kept", "v", "Kept as it is.", List.of(), List.of(), List.of());
        texts.put(kept, 5_000);
        var paged = new dev.openrag.knowledge.neo4j.Neo4jDocumentTexts(driver);
        assertThat(paged.rebuildMissing(collection, 1)).containsExactly("p-a", "p-b", "p-c");
        assertThat(texts.get(collection, "p-b")).map(DocumentText::text).contains("Voles, p-b\n\nand shrews.");
        assertThat(texts.get(collection, "p-kept")).contains(kept);
        assertThat(paged.rebuildMissing(collection, 1)).isEmpty();
    }

    /** Runs both while a transaction of the test's holds the text's write lock, then releases it; the text after both. */
    private Optional<String> raced(java.util.concurrent.ExecutorService pool, String documentId, Runnable first, Runnable second)
            throws Exception {
        try (Session session = driver.session(); var holder = session.beginTransaction()) {
            holder.run("MATCH (t:DocumentText {uid: $uid}) SET t.heldByTest = true",
                    Map.of("uid", Neo4jGraphStore.documentUid(COLLECTION, documentId))).consume();
            var one = pool.submit(first);
            Thread.sleep(400); // the first is waiting for the lock (or, checked already, for its write)
            var two = pool.submit(second);
            Thread.sleep(400);
            holder.rollback();
            one.get(30, java.util.concurrent.TimeUnit.SECONDS);
            two.get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
        return texts.get(COLLECTION, documentId).map(DocumentText::text);
    }

    private static DocumentText textOf(String documentId, String text) {
        return new DocumentText(COLLECTION, documentId, Ids.contentHash(text), text, List.of(), List.of(),
                List.of(new DocumentText.ChunkSpan(0, 0, text.length())));
    }

    /**
     * A document stored before texts were kept (its text node removed here) gets a text with every
     * chunk's exact span back from {@code POST /api/collections/{name}/reindex}; the control, a
     * document with its text, is left as it is, and a second reindex has nothing to do.
     */
    @Test
    void reindexRestoresTextAndSpansOfADocumentStoredWithoutThem() {
        String collection = "text-reindex";
        // sections above the chunker's 100-token minimum, so that each is a chunk of its own
        String sections = "# Beavers\n\n" + "Beavers build dams from branches, stones and mud across quiet streams. ".repeat(12)
                + "\n\n## Lodges\n\n" + "A lodge has an underwater entrance and a dry chamber above the water line. ".repeat(12)
                + "\n\n## Kits\n\n" + "Kits stay with their parents for two years. Ça dure deux ans — 两年, et puis ils partent. ".repeat(12);
        var beavers = given().contentType(ContentType.JSON).body(IngestTestSupport.textDocument(collection, "note://reindex/beavers.md",
                "Beavers", sections)).post("/api/documents").then().statusCode(202).extract().jsonPath();
        var moles = given().contentType(ContentType.JSON).body(IngestTestSupport.textDocument(collection, "note://reindex/moles.md",
                "Moles", "Moles dig tunnels with their broad front paws.")).post("/api/documents").then().statusCode(202)
                .extract().jsonPath();
        // every sink done: the chunks a reindex reads are stored
        assertThat(IngestTestSupport.awaitJob(beavers.getString("jobId"), WAIT).getString("state")).isEqualTo("completed");
        assertThat(IngestTestSupport.awaitJob(moles.getString("jobId"), WAIT).getString("state")).isEqualTo("completed");
        String textless = beavers.getString("documentIds[0]");
        String kept = moles.getString("documentIds[0]");
        DocumentText keptBefore = texts.get(collection, kept).orElseThrow();
        try (Session session = driver.session()) {
            session.executeWrite(tx -> tx.run("MATCH (t:DocumentText {uid: $uid}) DELETE t",
                    Map.of("uid", Neo4jGraphStore.documentUid(collection, textless))).consume());
            // issue 72: the text sink wrote the kept one's chunks' places with its text; then its text as stored before places were
            assertThat(session.run("MATCH (p:ChunkPlace {uid: $uid}) RETURN count(p) AS n",
                    Map.of("uid", Neo4jGraphStore.documentUid(collection, kept))).single().get("n").asLong())
                    .isEqualTo(keptBefore.chunks().size()).isPositive();
            session.executeWrite(tx -> tx.run("MATCH (t:DocumentText {uid: $uid})"
                    + " REMOVE t.placesVersion, t.placesComplete, t.elsewhereIndexes, t.elsewhereHashes"
                    + " WITH t MATCH (p:ChunkPlace {uid: t.uid}) DELETE p", Map.of("uid", Neo4jGraphStore.documentUid(collection, kept))).consume());
        }
        assertThat(texts.get(collection, textless)).isEmpty();

        given().post("/api/collections/" + collection + "/reindex").then().statusCode(200)
                .body("collection", equalTo(collection)).body("rebuilt", equalTo(1)).body("documentIds", contains(textless))
                .body("placed", equalTo(1));
        try (Session session = driver.session()) {
            for (String documentId : List.of(textless, kept)) {
                String uid = Neo4jGraphStore.documentUid(collection, documentId);
                assertThat(session.run("MATCH (p:ChunkPlace {uid: $uid}) RETURN count(p) AS n", Map.of("uid", uid)).single().get("n").asLong())
                        .as("places of " + documentId).isEqualTo(texts.get(collection, documentId).orElseThrow().chunks().size()).isPositive();
            }
        }
        DocumentText rebuilt = texts.get(collection, textless).orElseThrow();
        List<String> chunkTexts;
        try (Session session = driver.session()) {
            chunkTexts = session.executeRead(tx -> tx.run("MATCH (ch:Chunk {collection: $collection, documentId: $documentId})"
                    + " RETURN ch.text AS text ORDER BY ch.chunkIndex", Map.of("collection", collection, "documentId", textless))
                    .list(row -> row.get("text").asString()));
        }
        assertThat(chunkTexts).as("the document has several chunks").hasSizeGreaterThan(1);
        assertThat(rebuilt.chunks()).hasSize(chunkTexts.size());
        for (int i = 0; i < chunkTexts.size(); i++) {
            DocumentText.ChunkSpan span = rebuilt.chunk(i).orElseThrow();
            assertThat(rebuilt.text().substring(span.start(), span.end())).as("chunk " + i + "'s span").isEqualTo(chunkTexts.get(i));
        }
        assertThat(texts.get(collection, kept)).as("a document with its text is left as it is").contains(keptBefore);

        given().post("/api/collections/" + collection + "/reindex").then().statusCode(200).body("rebuilt", equalTo(0))
                .body("placed", equalTo(0));
        given().post("/api/collections/no-documents-here/reindex").then().statusCode(200).body("rebuilt", equalTo(0));
        given().post("/api/collections/Bad Name!/reindex").then().statusCode(400).body("message", notNullValue());
    }

    /** One chunk spanning the whole text, as the chunk stage writes it. */
    private static String chunked(String documentId, String text) {
        return CODEC.toJson(new DocumentChunked(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), documentId, "text-versions-job",
                COLLECTION, new Source("producer", "note://text-versions/" + documentId), documentId, "text/plain", text,
                Ids.contentHash(text), List.of(new Chunk(Ids.chunkId(COLLECTION, documentId, 0), 0, text, List.of(), 0, text.length(),
                        null, null)), Map.of(), null, null, null));
    }

    private static RecordMetadata send(String topic, String json, long timestamp) throws Exception {
        String key = topic.equals(Topics.DOCUMENTS_DELETED) ? CODEC.fromJson(json, DocumentDeleted.class).documentId()
                : CODEC.fromJson(json, DocumentChunked.class).documentId();
        return IngestTestSupport.send(topic, key, json, timestamp);
    }

    private void awaitText(String documentId, Optional<String> expected) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        Optional<String> text = texts.get(COLLECTION, documentId).map(DocumentText::text);
        while (!text.equals(expected)) {
            assertThat(System.nanoTime()).as("text of " + documentId + " becomes " + expected + ", is " + text).isLessThan(deadline);
            IngestTestSupport.sleep(300);
            text = texts.get(COLLECTION, documentId).map(DocumentText::text);
        }
    }

    private static void awaitConsumed(String group, RecordMetadata record) throws Exception {
        IngestTestSupport.awaitConsumed(group, record, WAIT);
    }
}
