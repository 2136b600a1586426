package dev.openrag.ingest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

import dev.openrag.ingest.sink.MetadataUpdates;
import dev.openrag.knowledge.port.DocumentMetadataStore;
import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.schemas.DocumentDeleted;
import dev.openrag.schemas.EventCodec;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.Topics;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * Deletes travel on a topic of their own, unordered with uploads; each store still follows the order
 * the calls were made in, on real Kafka, Neo4j and OpenSearch. A delete made before a re-upload never
 * removes it, even when it reaches the stores after the re-upload was updated in place (its record is
 * written here with the time it was made, as a lagging delete consumer would get it); a delete made after
 * an upload removes it; and a version that arrived before a delete, written late (a replayed or slow sink
 * record), brings nothing back and leaves no version record behind.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
class DocumentVersionsTest {

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final EventCodec CODEC = new EventCodec();
    private static final List<String> DELETE_GROUPS = List.of("openrag-delete-neo4j", "openrag-delete-opensearch");
    private static final List<String> SINK_GROUPS = List.of("openrag-sink-neo4j", "openrag-sink-opensearch");
    private static final String GRAPH_GROUP = "openrag-sink-graph";

    @Inject
    Driver driver;

    @Inject
    DocumentMetadataStore documents;

    @Inject
    dev.openrag.knowledge.port.DocumentTexts texts;

    @Inject
    org.opensearch.client.opensearch.OpenSearchClient openSearch;

    @Test
    void aDeleteMadeBeforeAReuploadAndDeliveredAfterItsUpdateInPlaceLeavesTheReupload() throws Exception {
        String collection = "versions-reupload";
        String id = upload(collection, "notes://heron", "Herons stand still in shallow water.", "waders");
        long deletedAt = System.currentTimeMillis();
        IngestTestSupport.sleep(20);
        JsonPath relabel = awaitCompleted(post(collection, "notes://heron", "Herons stand still in shallow water.", "birds"));
        assertThat(relabel.getList("warnings.message", String.class)).as("updated in place").contains(MetadataUpdates.UPDATED);

        RecordMetadata late = IngestTestSupport.send(Topics.DOCUMENTS_DELETED, id, deleted(collection, id), deletedAt);
        for (String group : DELETE_GROUPS) {
            IngestTestSupport.awaitConsumed(group, late, WAIT);
        }
        assertStored(collection, id, "birds");

        // the control: a delete made after the update in place, delivered the same way, removes it
        RecordMetadata after = IngestTestSupport.send(Topics.DOCUMENTS_DELETED, id, deleted(collection, id), System.currentTimeMillis());
        for (String group : DELETE_GROUPS) {
            IngestTestSupport.awaitConsumed(group, after, WAIT);
        }
        assertGone(collection, id);
    }

    /** Through the API, the two calls at once: whichever reaches the stores first, the re-upload stands, with its metadata. */
    @Test
    void deleteThenReuploadAtOnceLeavesTheReuploadWithItsMetadata() throws Exception {
        String collection = "versions-at-once";
        for (int round = 0; round < 3; round++) {
            String text = "Ibises probe mud with curved bills, round " + round + ".";
            String id = upload(collection, "notes://ibis", text, "first-" + round);
            given().delete("/api/documents/" + id + "?collection=" + collection).then().statusCode(202);
            String reupload = post(collection, "notes://ibis", text, "second-" + round);
            awaitCompleted(reupload);
            awaitDrained(Topics.DOCUMENTS_DELETED, DELETE_GROUPS);
            awaitDrained(Topics.CHUNKS_EMBEDDED, SINK_GROUPS);
            assertStored(collection, id, "second-" + round);
        }

        // the control: upload, then delete (a collection of its own: the stats count whole collections)
        String control = collection + "-control";
        String id = upload(control, "notes://spoonbill", "Spoonbills sweep their bills through water.", "waders");
        given().delete("/api/documents/" + id + "?collection=" + control).then().statusCode(202);
        awaitDrained(Topics.DOCUMENTS_DELETED, DELETE_GROUPS);
        assertGone(control, id);
    }

    @Test
    void aVersionOlderThanADeleteWrittenLateBringsNothingBackAndLeavesNoVersionRecord() throws Exception {
        String collection = "versions-late-write";
        String id = upload(collection, "notes://late-otter", "Otters hold hands while they sleep.", "mustelids");
        String embedded = IngestTestSupport.readUntil(Topics.CHUNKS_EMBEDDED, "notes://late-otter", 1, WAIT).get(0);
        given().delete("/api/documents/" + id + "?collection=" + collection).then().statusCode(202);
        awaitDrained(Topics.DOCUMENTS_DELETED, DELETE_GROUPS);
        assertGone(collection, id);

        // the version's embedded record delivered again, after the delete (a replay, or a sink that lagged)
        RecordMetadata late = IngestTestSupport.send(Topics.CHUNKS_EMBEDDED, id, embedded, System.currentTimeMillis());
        for (String group : SINK_GROUPS) {
            IngestTestSupport.awaitConsumed(group, late, WAIT);
        }
        assertGone(collection, id);
        List<String> versionKeys = driver.executableQuery("MATCH (v:DocumentVersion {uid: $uid}) RETURN keys(v) AS keys")
                .withParameters(Map.of("uid", collection + "/" + id)).execute().records().stream()
                .flatMap(r -> r.get("keys").asList(v -> v.asString()).stream()).toList();
        assertThat(versionKeys).as("the delete's record, holding no stored version").isNotEmpty()
                .noneMatch(key -> key.startsWith("stored_"));

        // the control: the document uploaded again after the delete is back
        String again = upload(collection, "notes://late-otter", "Otters hold hands while they sleep.", "back");
        assertThat(again).isEqualTo(id);
        assertStored(collection, id, "back");
    }

    /**
     * The graph sink keeps the chunk sinks' version rule: a replayed graph of an older version is not written over the
     * stored one's, and a graph of a version older than a delete, written late, brings no entity or chunk back.
     */
    @Test
    void aGraphOfAnOlderVersionOrOfOneOlderThanADeleteWrittenLateBringsNothingBack() throws Exception {
        String collection = "versions-late-graph";
        String id = upload(collection, "notes://heronry", "At dawn the Grey Heron nests beside the River Thames.", "first");
        String older = IngestTestSupport.readUntil(Topics.GRAPH_EXTRACTED, "Grey Heron", 1, WAIT).get(0);
        upload(collection, "notes://heronry", "At dawn the Little Egret hunts along the Severn Estuary.", "second");
        String newer = IngestTestSupport.readUntil(Topics.GRAPH_EXTRACTED, "Little Egret", 1, WAIT).get(0);
        assertThat(entities(collection)).contains("Little Egret").doesNotContain("Grey Heron");

        redeliver(Topics.GRAPH_EXTRACTED, id, older, GRAPH_GROUP);
        assertThat(entities(collection)).as("the older version's graph, replayed").contains("Little Egret").doesNotContain("Grey Heron");
        // the control: the stored version's own graph delivered again still writes
        driver.executableQuery("MATCH (e:Entity {collection: $collection}) DETACH DELETE e")
                .withParameters(Map.of("collection", collection)).execute();
        redeliver(Topics.GRAPH_EXTRACTED, id, newer, GRAPH_GROUP);
        assertThat(entities(collection)).as("the same version again").contains("Little Egret");

        given().delete("/api/documents/" + id + "?collection=" + collection).then().statusCode(202);
        awaitDrained(Topics.DOCUMENTS_DELETED, DELETE_GROUPS);
        assertGone(collection, id);
        assertThat(entities(collection)).isEmpty();

        redeliver(Topics.GRAPH_EXTRACTED, id, newer, GRAPH_GROUP);
        assertThat(entities(collection)).as("a graph of a version older than the delete, late").isEmpty();
        assertGone(collection, id);

        // the control: uploaded again after the delete, its graph is back
        upload(collection, "notes://heronry", "At dawn the Little Egret hunts along the Severn Estuary.", "third");
        assertThat(entities(collection)).contains("Little Egret", "Severn Estuary");
    }

    /**
     * A delete's time is the one fixed when it was accepted ({@code deletedAt}), not its record's: a delete accepted
     * before a re-upload and delivered late with a later record time keeps the re-upload; through the API, a delete
     * and the re-upload accepted right after it are stamped in that order.
     */
    @Test
    void aDeleteIsOrderedByTheTimeItWasAcceptedNotByItsRecord() throws Exception {
        String collection = "versions-delete-time";
        String id = upload(collection, "notes://crane", "Cranes dance in pairs on frozen fields.", "first");
        long accepted = System.currentTimeMillis();
        IngestTestSupport.sleep(20);
        awaitCompleted(post(collection, "notes://crane", "Cranes dance in pairs on frozen fields, calling loudly.", "second"));

        RecordMetadata late = IngestTestSupport.send(Topics.DOCUMENTS_DELETED, id, deleted(collection, id, accepted),
                System.currentTimeMillis() + 5);
        for (String group : DELETE_GROUPS) {
            IngestTestSupport.awaitConsumed(group, late, WAIT);
        }
        assertStored(collection, id, "second");

        // the control: a delete accepted after the re-upload, its record written with an earlier time, removes it
        RecordMetadata after = IngestTestSupport.send(Topics.DOCUMENTS_DELETED, id, deleted(collection, id, System.currentTimeMillis()),
                accepted);
        for (String group : DELETE_GROUPS) {
            IngestTestSupport.awaitConsumed(group, after, WAIT);
        }
        assertGone(collection, id);

        // through the API: the delete carries its acceptance time, and the re-upload right after it a later one
        String deleteJob = given().delete("/api/documents/" + id + "?collection=" + collection).then().statusCode(202)
                .extract().jsonPath().getString("jobId");
        String reupload = post(collection, "notes://crane", "Cranes roost standing in shallow water.", "third");
        awaitCompleted(reupload);
        Long deletedAt = CODEC.fromJson(IngestTestSupport.readUntil(Topics.DOCUMENTS_DELETED, deleteJob, 1, WAIT).get(0),
                DocumentDeleted.class).deletedAt();
        assertThat(deletedAt).as("the delete's acceptance time").isNotNull();
        long arrivedAt = CODEC.fromJson(IngestTestSupport.readUntil(Topics.CHUNKS_EMBEDDED, reupload, 1, WAIT).get(0),
                dev.openrag.schemas.ChunksEmbedded.class).arrivedAt();
        assertThat(arrivedAt).as("the re-upload's version time, after the delete's").isGreaterThan(deletedAt);
        awaitDrained(Topics.DOCUMENTS_DELETED, DELETE_GROUPS);
        assertStored(collection, id, "third");
    }

    /** The names of the collection's entities in Neo4j. */
    private List<String> entities(String collection) {
        return driver.executableQuery("MATCH (e:Entity {collection: $collection}) RETURN e.name AS name ORDER BY name")
                .withParameters(Map.of("collection", collection)).execute().records().stream().map(r -> r.get("name").asString()).toList();
    }

    /** Sends the record again, now, and waits until {@code group} has consumed it. */
    private static void redeliver(String topic, String key, String value, String group) throws Exception {
        IngestTestSupport.awaitConsumed(group, IngestTestSupport.send(topic, key, value, System.currentTimeMillis()), WAIT);
    }

    /** Uploads and waits for its job; the document's id. */
    private static String upload(String collection, String uri, String text, String team) {
        JsonPath accepted = accepted(collection, uri, text, team);
        awaitCompleted(accepted.getString("jobId"));
        return accepted.getString("documentIds[0]");
    }

    private static String post(String collection, String uri, String text, String team) {
        return accepted(collection, uri, text, team).getString("jobId");
    }

    private static JsonPath accepted(String collection, String uri, String text, String team) {
        return given().contentType(ContentType.JSON).body(Map.of("collection", collection, "uri", uri, "title", "Note", "text", text,
                "metadata", Map.of("team", team))).post("/api/documents").then().statusCode(202).extract().jsonPath();
    }

    private static JsonPath awaitCompleted(String jobId) {
        JsonPath job = IngestTestSupport.awaitJob(jobId, WAIT);
        assertThat(job.getString("state")).as(job.prettify()).isEqualTo("completed");
        return job;
    }

    private static String deleted(String collection, String documentId) {
        return CODEC.toJson(new DocumentDeleted(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), documentId,
                "versions-delete-" + System.nanoTime(), collection));
    }

    /** A delete accepted at {@code deletedAt}. */
    private static String deleted(String collection, String documentId, long deletedAt) {
        return CODEC.toJson(new DocumentDeleted(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), documentId,
                "versions-delete-" + System.nanoTime(), collection, deletedAt));
    }

    private void assertStored(String collection, String id, String team) {
        JsonPath stats = IngestTestSupport.stats(collection);
        assertThat(stats.getLong("documents")).as("Neo4j has the document").isEqualTo(1);
        assertThat(stats.getLong("chunks.opensearch")).as("OpenSearch has its chunks").isPositive();
        assertThat(stats.getLong("chunks.neo4j")).isEqualTo(stats.getLong("chunks.opensearch"));
        assertThat(documents.metadataOf(collection, List.of(id)).get(id)).as("its metadata in Neo4j").containsEntry("team", team);
        assertThat(openSearchTeams(collection, id)).as("its metadata in OpenSearch").containsOnly(team);
        assertThat(texts.get(collection, id)).as("its text, for citations").isPresent();
    }

    private void assertGone(String collection, String id) {
        JsonPath stats = IngestTestSupport.stats(collection);
        assertThat(stats.getLong("documents")).as("no document in Neo4j").isZero();
        assertThat(stats.getLong("chunks.opensearch")).as("no chunk in OpenSearch").isZero();
        assertThat(stats.getLong("chunks.neo4j")).isZero();
        assertThat(texts.get(collection, id)).as("no text").isEmpty();
    }

    /** The team each of the document's chunks carries in OpenSearch. */
    @SuppressWarnings("rawtypes")
    private List<String> openSearchTeams(String collection, String id) {
        try {
            var hits = openSearch.search(s -> s.index("openrag-chunks-" + collection).query(q -> q.term(t -> t.field("documentId")
                    .value(org.opensearch.client.opensearch._types.FieldValue.of(id)))), Map.class).hits().hits();
            return hits.stream().map(hit -> String.valueOf(((Map) hit.source().get("meta_s")).get("team"))).toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Until each group has committed every record of the topic written so far. */
    private static void awaitDrained(String topic, List<String> groups) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, IngestTestSupport.bootstrapServers()))) {
            var partitions = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            var ends = admin.listOffsets(partitions.stream().collect(java.util.stream.Collectors.toMap(p -> p, p -> OffsetSpec.latest())))
                    .all().get();
            for (String group : groups) {
                while (true) {
                    var committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
                    boolean drained = partitions.stream().allMatch(p -> ends.get(p).offset() == 0
                            || (committed.get(p) != null && committed.get(p).offset() >= ends.get(p).offset()));
                    if (drained) {
                        break;
                    }
                    assertThat(System.nanoTime()).as(group + " drains " + topic).isLessThan(deadline);
                    IngestTestSupport.sleep(300);
                }
            }
        }
    }
}
