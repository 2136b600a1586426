package dev.openrag.knowledge.neo4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

import dev.openrag.localstack.Engine;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.LocalStackExtension.WithEngines;

/**
 * The per-store records of a document's versions and deletes, against real Neo4j: the order the calls
 * were made in decides, by time, whatever order they reach a store in; a delete wins a tie; a write of a
 * document no version of which entered records nothing.
 */
@WithEngines({Engine.NEO4J})
class DocumentVersionRecordsTest {

    private static final String STORE = "sink-opensearch";
    private static final String OTHER = "sink-neo4j";
    private static final String GRAPH = "sink-graph";
    private static Driver driver;
    private static Neo4jDocumentMetadata versions;

    @BeforeAll
    static void connect(StackConfig config) {
        driver = GraphDatabase.driver(config.neo4jUri(), AuthTokens.none());
        Neo4jSchema.bootstrap(driver, 4);
        versions = new Neo4jDocumentMetadata(driver);
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    @Test
    void aDeleteRemovesOnlyWhatArrivedBeforeItAndKeepsOutLateWritesOfOlderVersions() {
        String doc = "ordered";
        versions.versionEntered("c", doc, "j1@1000", 1000);
        assertThat(versions.mayWrite("c", doc, STORE, 1000)).isTrue();
        assertThat(versions.versionStored("c", doc, STORE, "j1@1000", 1000)).isTrue();

        assertThat(versions.deleteVersion("c", doc, STORE, 2000)).as("made after the stored version: removes it").isTrue();
        assertThat(versions.mayWrite("c", doc, STORE, 1500)).as("a version older than the delete, late").isFalse();
        assertThat(versions.mayWrite("c", doc, STORE, 2000)).as("a tie: the delete wins").isFalse();
        assertThat(versions.mayWrite("c", doc, OTHER, 1500)).as("another store's own record").isTrue();
        assertThat(versions.versionStored("c", doc, STORE, "j1@1000", 1000)).as("a delete came while it was written").isFalse();
        assertThat(versions.mayWrite("c", doc, STORE, 2500)).as("a re-upload after the delete").isTrue();
        assertThat(versions.versionStored("c", doc, STORE, "j2@2500", 2500)).isTrue();

        assertThat(versions.deleteVersion("c", doc, STORE, 2200)).as("a delete made before the stored re-upload keeps it").isFalse();
        assertThat(versions.deleteVersion("c", doc, STORE, 3000)).as("the control: one made after it removes it").isTrue();
    }

    @Test
    void anOlderVersionReplayedAfterANewerOneWasStoredIsNotWrittenOverIt() {
        String doc = "replayed";
        versions.versionEntered("c", doc, "j2@2000", 2000);
        assertThat(versions.versionStored("c", doc, STORE, "j2@2000", 2000)).isTrue();
        assertThat(versions.mayWrite("c", doc, STORE, 1000)).as("v1's event redriven after v2 was stored").isFalse();
        // controls: the same version delivered again, a newer one, and another store that holds nothing yet
        assertThat(versions.mayWrite("c", doc, STORE, 2000)).isTrue();
        assertThat(versions.mayWrite("c", doc, STORE, 3000)).isTrue();
        assertThat(versions.mayWrite("c", doc, OTHER, 1000)).isTrue();
    }

    @Test
    void anUpdateInPlaceIsClaimedOnlyWhenEveryStoreHoldsTheLastVersionAndThenOutranksAnOlderDelete() {
        String doc = "in-place";
        List<String> stores = List.of(STORE, OTHER);
        versions.versionEntered("c", doc, "j1@1000", 1000);
        versions.versionStored("c", doc, STORE, "j1@1000", 1000);
        assertThat(versions.claimInPlace("c", doc, stores, "j2@2000+in-place", 2000)).as("one store still waits for j1").isFalse();
        versions.versionStored("c", doc, OTHER, "j1@1000", 1000);
        assertThat(versions.claimInPlace("c", doc, stores, "j2@2000+in-place", 2000)).isTrue();

        assertThat(versions.deleteVersion("c", doc, STORE, 1500)).as("a delete made before the update in place, delivered after it")
                .isFalse();
        assertThat(versions.deleteVersion("c", doc, OTHER, 2500)).as("one made after it").isTrue();
        assertThat(versions.claimInPlace("c", doc, stores, "j3@3000+in-place", 3000)).as("a store deleted it: the whole way").isFalse();
    }

    /** Neo4j's chunks and entity graph go in one removal: one delete for both, or for neither. */
    @Test
    void aDeleteForStoresRemovedTogetherIsRecordedForAllOrNone() {
        String doc = "together";
        List<String> both = List.of(OTHER, GRAPH);
        versions.versionEntered("c", doc, "j1@1000", 1000);
        versions.versionStored("c", doc, OTHER, "j1@1000", 1000);
        versions.versionStored("c", doc, GRAPH, "j2@3000", 3000);
        assertThat(versions.deleteVersion("c", doc, both, 2000)).as("the graph holds a version made after the delete").isFalse();
        assertThat(versions.mayWrite("c", doc, OTHER, 1000)).as("nothing recorded for the other").isTrue();

        assertThat(versions.deleteVersion("c", doc, both, 4000)).as("the control: a delete made after both").isTrue();
        assertThat(versions.mayWrite("c", doc, OTHER, 3500)).isFalse();
        assertThat(versions.mayWrite("c", doc, GRAPH, 3000)).as("the graph of a version before it, late").isFalse();
        assertThat(versions.mayWrite("c", doc, GRAPH, 4500)).as("a re-upload's graph").isTrue();
    }

    /** A sweep removes only records of deletes made before its horizon that guard no stored version, at most its batch. */
    @Test
    void aSweepRemovesOnlyOldDeleteRecordsThatHoldNoVersion() {
        Neo4jDocumentTexts texts = new Neo4jDocumentTexts(driver);
        versions.versionEntered("swept", "old", "j1@100", 100);
        versions.deleteVersion("swept", "old", List.of(STORE, OTHER), 200);
        texts.delete("swept", "old", 200);
        // controls: a delete after the horizon, a store still holding a version, one store deleted late
        versions.deleteVersion("swept", "recent", STORE, 900);
        texts.delete("swept", "recent", 900);
        versions.versionEntered("swept", "held", "j1@100", 100);
        versions.versionStored("swept", "held", OTHER, "j1@100", 100);
        versions.deleteVersion("swept", "held", STORE, 200);
        versions.deleteVersion("swept", "mixed", STORE, 200);
        versions.deleteVersion("swept", "mixed", OTHER, 900);

        assertThat(versions.sweepDeletes(500, 0)).as("a batch of none").isZero();
        while (versions.sweepDeletes(500, 1) > 0) {
            // one at a time, until none is left (other tests' records older than 500 go too)
        }
        assertThat(texts.sweepTombstones(500, 10)).isPositive();
        assertThat(recordOf("swept", "old")).as("an old delete guarding nothing").isFalse();
        assertThat(texts.get("swept", "old")).isEmpty();
        assertThat(tombstones("swept")).containsExactly("recent");
        assertThat(recordOf("swept", "recent")).isTrue();
        assertThat(recordOf("swept", "held")).isTrue();
        assertThat(recordOf("swept", "mixed")).isTrue();
        assertThat(versions.mayWrite("swept", "recent", STORE, 800)).as("what a kept record still keeps out").isFalse();
    }

    /** A version entered after a document's delete is on its way to the stores: its record stays; one entered before goes. */
    @Test
    void aSweepKeepsTheRecordOfAVersionEnteredAfterTheDelete() {
        versions.versionEntered("entered", "after", "j1@100", 100);
        versions.versionStored("entered", "after", STORE, "j1@100", 100);
        versions.deleteVersion("entered", "after", STORE, 200);
        versions.versionEntered("entered", "after", "j2@300", 300); // the re-upload, not yet written by any store
        // controls: entered before the delete, and a record made before arrival times were kept
        versions.versionEntered("entered", "before", "j1@100", 100);
        versions.deleteVersion("entered", "before", STORE, 200);
        versions.deleteVersion("entered", "legacy", STORE, 200);
        driver.executableQuery("MATCH (v:DocumentVersion {uid: 'entered/legacy'}) SET v.entered = 'j0@50'").execute();

        while (versions.sweepDeletes(500, 100) > 0) {
            // until none is left
        }
        assertThat(recordOf("entered", "after")).as("a version entered after the delete").isTrue();
        assertThat(recordOf("entered", "before")).isFalse();
        assertThat(recordOf("entered", "legacy")).isFalse();
        // what the kept record still does: an older version replayed is kept out once the re-upload is stored
        assertThat(versions.versionStored("entered", "after", STORE, "j2@300", 300)).isTrue();
        assertThat(versions.mayWrite("entered", "after", STORE, 100)).isFalse();
    }

    /**
     * A writer that commits while a sweep is looking at the same old record: the sweep waits for its lock and then
     * sees the write. Each writer here holds its transaction open (as a sink's write does between its lock and its
     * commit) until the sweep is blocked on it; the control is the same record with no writer.
     */
    @Test
    void aSweepKeepsWhatAConcurrentWriterStoredWhileItLooked() throws Exception {
        Neo4jDocumentTexts texts = new Neo4jDocumentTexts(driver);
        // a re-upload's version stored over an old delete's record
        oldDelete("stored");
        oldDelete("control");
        whileAWriterHolds("MATCH (v:DocumentVersion {uid: 'race/stored'}) SET v._lock = true, v.`stored_" + STORE
                + "` = 'j2@300', v.`storedAt_" + STORE + "` = 300", () -> versions.sweepDeletes(500, 10_000));
        assertThat(recordOf("race", "stored")).as("a version stored while the sweep looked").isTrue();
        assertThat(recordOf("race", "control")).as("the control, with no writer").isFalse();

        // a re-upload's version entered
        oldDelete("entered");
        oldDelete("control");
        whileAWriterHolds("MATCH (v:DocumentVersion {uid: 'race/entered'}) SET v._lock = true, v.entered = 'j2@300', v.enteredAt = 300",
                () -> versions.sweepDeletes(500, 10_000));
        assertThat(recordOf("race", "entered")).as("a version entered while the sweep looked").isTrue();
        assertThat(recordOf("race", "control")).as("the control, with no writer").isFalse();

        // a re-upload's text written over the tombstone, as Neo4jDocumentTexts.put writes it
        texts.delete("race", "text", 200);
        texts.delete("race", "control-text", 200);
        whileAWriterHolds("MATCH (t:DocumentText {uid: $uid}) SET t._lock = true, t.deleted = null, t.text = 'The re-upload.', "
                + "t.version = 'j2@300', t.arrivedAt = 300", () -> texts.sweepTombstones(500, 10_000));
        assertThat(texts.get("race", "text")).as("a re-upload's text written over the tombstone while the sweep looked").isPresent();
        assertThat(tombstones("race")).as("the control's tombstone, with no writer").doesNotContain("control-text");
    }

    /**
     * The other order: a writer that reaches a record while a sweep holds it and then removes it waits for the sweep,
     * and then writes as if there had been no record (a new one where it makes one), never failing on the removed node.
     */
    @Test
    void aWriterWaitingOnARecordTheSweepRemovesStillWrites() throws Exception {
        Neo4jDocumentTexts texts = new Neo4jDocumentTexts(driver);
        Map<String, java.util.concurrent.Callable<Object>> writers = new java.util.LinkedHashMap<>();
        writers.put("entered", () -> {
            versions.versionEntered("race", "w-entered", "j2@300", 300);
            return null;
        });
        writers.put("stored", () -> versions.versionStored("race", "w-stored", STORE, "j2@300", 300));
        writers.put("deleted", () -> versions.deleteVersion("race", "w-deleted", STORE, 300));
        writers.put("claimed", () -> versions.claimInPlace("race", "w-claimed", List.of(STORE), "j2@300+in-place", 300));
        for (Map.Entry<String, java.util.concurrent.Callable<Object>> writer : writers.entrySet()) {
            String id = "w-" + writer.getKey();
            oldDelete(id);
            whileASweepHolds("MATCH (v:DocumentVersion {uid: $uid})", "race/" + id, writer.getValue());
        }
        assertThat(driver.executableQuery("MATCH (v:DocumentVersion {uid: 'race/w-entered'}) RETURN v.enteredAt AS at").execute()
                .records().get(0).get("at").asLong()).isEqualTo(300);
        assertThat(versions.mayWrite("race", "w-deleted", STORE, 250)).as("the delete recorded anew").isFalse();

        texts.delete("race", "w-text", 200);
        whileASweepHolds("MATCH (v:DocumentText {uid: $uid})", Neo4jGraphStore.documentUid("race", "w-text"), () -> texts.put(
                new dev.openrag.knowledge.browse.DocumentText("race", "w-text", "j2@300", "The re-upload.", List.of(), List.of(),
                        List.of()), 300));
        assertThat(texts.get("race", "w-text")).isPresent();
    }

    /** Locks the node as a sweep does, starts {@code write}, waits until it is blocked, removes the node and commits; the write must then succeed. */
    private static void whileASweepHolds(String match, String uid, java.util.concurrent.Callable<Object> write) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try (org.neo4j.driver.Session session = driver.session(); org.neo4j.driver.Transaction sweep = session.beginTransaction()) {
            sweep.run(match + " SET v._lock = true", Map.of("uid", uid)).consume();
            java.util.concurrent.Future<Object> written = pool.submit(write);
            long deadline = System.currentTimeMillis() + 30_000;
            while (!blockedSweep() && !written.isDone() && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            // the race is only run when the writer waits on the sweep's lock: a writer done before the delete proves nothing
            assertThat(written.isDone()).as("the writer waits for the sweep's lock").isFalse();
            assertThat(blockedSweep()).as("a transaction blocked on the sweep's lock").isTrue();
            sweep.run(match + " DETACH DELETE v", Map.of("uid", uid)).consume();
            sweep.commit();
            written.get(30, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
    }

    /** A record of an old delete (made at 200) of a version that entered at 100. */
    private static void oldDelete(String documentId) {
        versions.versionEntered("race", documentId, "j1@100", 100);
        versions.deleteVersion("race", documentId, STORE, 200);
    }

    /**
     * Runs {@code write} in a transaction held open until {@code sweep}, started beside it, is blocked by it (Neo4j
     * lists it so), then commits, and waits for the sweep.
     */
    private static void whileAWriterHolds(String write, java.util.concurrent.Callable<Integer> sweep) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try (org.neo4j.driver.Session session = driver.session(); org.neo4j.driver.Transaction writer = session.beginTransaction()) {
            writer.run(write, java.util.Map.of("uid", Neo4jGraphStore.documentUid("race", "text"))).consume();
            java.util.concurrent.Future<Integer> swept = pool.submit(sweep);
            long deadline = System.currentTimeMillis() + 30_000;
            while (!blockedSweep() && !swept.isDone() && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertThat(swept.isDone()).as("the sweep waits for the writer's lock").isFalse();
            writer.commit();
            swept.get(30, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
    }

    private static boolean blockedSweep() {
        return driver.executableQuery("SHOW TRANSACTIONS YIELD currentQuery, status WHERE status STARTS WITH 'Blocked' RETURN count(*) AS n")
                .execute().records().get(0).get("n").asLong() > 0;
    }

    private static boolean recordOf(String collection, String documentId) {
        return driver.executableQuery("MATCH (v:DocumentVersion {uid: $uid}) RETURN count(v) AS n")
                .withParameters(java.util.Map.of("uid", collection + "/" + documentId)).execute().records().get(0).get("n").asLong() > 0;
    }

    private static List<String> tombstones(String collection) {
        return driver.executableQuery("MATCH (t:DocumentText {collection: $collection}) WHERE t.deleted RETURN t.documentId AS id")
                .withParameters(java.util.Map.of("collection", collection)).execute().records().stream()
                .map(r -> r.get("id").asString()).toList();
    }

    @Test
    void aSinkWriteOfADocumentNoVersionOfWhichEnteredMakesNoRecord() {
        assertThat(versions.mayWrite("c", "never-entered", STORE, 1000)).isTrue();
        assertThat(versions.versionStored("c", "never-entered", STORE, "j1@1000", 1000)).isTrue();
        long nodes = driver.executableQuery("MATCH (v:DocumentVersion {uid: 'c/never-entered'}) RETURN count(v) AS n").execute()
                .records().get(0).get("n").asLong();
        assertThat(nodes).isZero();
    }
}
