package dev.openrag.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.knowledge.qdrant.QdrantVectorIndex;
import io.qdrant.client.QdrantClient;
import io.qdrant.client.QdrantGrpcClient;
import io.qdrant.client.grpc.JsonWithInt;

/**
 * The real Qdrant adapter and the real Qdrant Java client (gRPC) against {@link QdrantGrpcStandIn},
 * a stand-in server: no Qdrant server can run on this machine.
 */
class QdrantVectorIndexAgainstGrpcStandInTest {

    private QdrantGrpcStandIn server;
    private QdrantClient client;
    private QdrantVectorIndex index;

    @BeforeEach
    void start() throws Exception {
        server = new QdrantGrpcStandIn();
        client = new QdrantClient(QdrantGrpcClient.newBuilder("127.0.0.1", server.port(), false).build());
        index = new QdrantVectorIndex(client, 3);
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void upsertSearchReplaceAndDeleteThroughTheQdrantProtocol() {
        index.upsert(List.of(chunk("d1", 0, 1, 0, 0), chunk("d1", 1, 0, 1, 0), chunk("d1", 2, 0, 0, 1), chunk("d2", 0, 0.9f, 0.1f, 0)));
        index.upsert(List.of(chunk("d1", 0, 1, 0, 0)));
        assertThat(index.countChunks("qdrant-test")).as("upserts are idempotent by chunk id").isEqualTo(4);

        List<ScoredChunk> hits = index.search("qdrant-test", new float[] {1, 0.05f, 0}, 2);
        assertThat(hits).extracting(h -> h.chunk().chunkId()).containsExactly("qdrant-test/d1#0", "qdrant-test/d2#0");
        assertThat(hits.get(0).rank()).isEqualTo(1);
        assertThat(hits.get(0).chunk().text()).isEqualTo("text d1 0");
        assertThat(hits.get(0).chunk().headingPath()).containsExactly("Intro");

        index.replaceDocument("qdrant-test", "d1", List.of(chunk("d1", 0, 1, 0, 0)));
        assertThat(index.countChunks("qdrant-test")).as("the shorter version drops chunks 1 and 2").isEqualTo(2);

        index.deleteDocument("qdrant-test", "d2");
        assertThat(index.countChunks("qdrant-test")).isEqualTo(1);
        assertThat(index.search("unknown", new float[] {1, 0, 0}, 3)).isEmpty();
        assertThat(index.countChunks("unknown")).isZero();
    }

    /**
     * Every document-scoped call filters on {@code documentId}: a new collection is made with a keyword index on it,
     * and one made before (without it) gets it the first time it is used, whatever the call; asked once per
     * collection, and asking again (another instance) leaves the one index.
     */
    @Test
    void documentIdIsIndexedAsAKeywordInNewAndExistingCollections() {
        index.upsert(List.of(chunk("d1", 0, 1, 0, 0)));
        assertThat(server.fieldIndexes("qdrant-test")).as("made with the collection")
                .containsExactly(Map.entry("documentId", io.qdrant.client.grpc.Points.FieldType.FieldTypeKeyword));
        index.upsert(List.of(chunk("d1", 1, 0, 1, 0)));
        index.deleteDocument("qdrant-test", "d1");
        assertThat(server.indexRequests()).as("once per collection, not per write").isEqualTo(1);

        server.createBareCollection("made-before");
        assertThat(server.fieldIndexes("made-before")).isEmpty();
        new QdrantVectorIndex(client, 3).deleteDocument("made-before", "d1");
        assertThat(server.fieldIndexes("made-before")).as("an existing collection, first used by a delete")
                .containsExactly(Map.entry("documentId", io.qdrant.client.grpc.Points.FieldType.FieldTypeKeyword));
        new QdrantVectorIndex(client, 3).upsert(List.of(chunk("d1", 0, 1, 0, 0)));
        assertThat(server.fieldIndexes("qdrant-test")).as("asked again by another instance: still the one index").hasSize(1);

        // the control: a collection no call has touched, and one only looked up while absent, get nothing
        server.createBareCollection("untouched");
        assertThat(new QdrantVectorIndex(client, 3).search("absent", new float[] {1, 0, 0}, 3)).isEmpty();
        assertThat(server.fieldIndexes("untouched")).isEmpty();
        assertThat(server.fieldIndexes("absent")).isEmpty();
    }

    /**
     * A metadata-only change (MetadataUpdates): the payload's metadata of the document's points is
     * replaced through set/delete payload, their vectors stay as they were and nothing is upserted,
     * so nothing had to be embedded again; another document's payload is left alone.
     */
    @Test
    void aMetadataOnlyChangeRewritesThePayloadAndKeepsTheVectors() {
        index.replaceDocument("qdrant-test", "d1", List.of(chunk("d1", 0, 1, 0, 0, Map.of("team", "payments", "year", 2025)),
                chunk("d1", 1, 0, 1, 0, Map.of("team", "payments", "year", 2025))));
        index.replaceDocument("qdrant-test", "d2", List.of(chunk("d2", 0, 0, 0, 1, Map.of("team", "payments"))));
        Map<String, List<Float>> vectors = server.vectors("qdrant-test", "d1");
        long upserted = server.upserted();

        long updated = index.replaceMetadata("qdrant-test", "d1",
                Map.of("team", "billing", "tags", List.of("runbook", "pci"), "reviewed", "2026-03-01"));

        assertThat(updated).as("every chunk of d1 carries the new metadata").isEqualTo(2);
        assertThat(server.payloads("qdrant-test", "d1").values()).hasSize(2).allSatisfy(payload -> {
            Map<String, JsonWithInt.Value> metadata = payload.get("metadata").getStructValue().getFieldsMap();
            assertThat(metadata.keySet()).containsExactlyInAnyOrder("team", "tags", "reviewed");
            assertThat(metadata.get("team").getStringValue()).isEqualTo("billing");
            assertThat(metadata.get("tags").getListValue().getValuesList()).extracting(JsonWithInt.Value::getStringValue)
                    .containsExactly("runbook", "pci");
            assertThat(metadata.get("reviewed").getStringValue()).as("a date, as an instant").isEqualTo("2026-03-01T00:00:00Z");
            assertThat(payload.get("text").getStringValue()).as("the rest of the payload stays").startsWith("text d1");
        });
        assertThat(server.vectors("qdrant-test", "d1")).as("vectors untouched").isEqualTo(vectors);
        assertThat(server.upserted()).as("no point written again, so none embedded again").isEqualTo(upserted);
        // control: the other document keeps its metadata
        assertThat(server.payloads("qdrant-test", "d2").values()).singleElement().satisfies(payload ->
                assertThat(payload.get("metadata").getStructValue().getFieldsMap().get("team").getStringValue()).isEqualTo("payments"));

        assertThat(index.replaceMetadata("qdrant-test", "d1", Map.of())).isEqualTo(2);
        assertThat(server.payloads("qdrant-test", "d1").values()).as("no metadata left: the key is gone")
                .allSatisfy(payload -> assertThat(payload).doesNotContainKey("metadata").containsKey("chunkId"));
        assertThat(server.vectors("qdrant-test", "d1")).isEqualTo(vectors);
    }

    @Test
    void aMetadataOnlyChangeOfWhatQdrantDoesNotHoldChangesNothingAndSaysSo() {
        index.replaceDocument("qdrant-test", "d1", List.of(chunk("d1", 0, 1, 0, 0, Map.of("team", "payments"))));

        assertThat(index.replaceMetadata("qdrant-test", "missing", Map.of("team", "billing")))
                .as("no chunk of an unknown document: MetadataUpdates then sends it the whole way").isZero();
        assertThat(index.replaceMetadata("no-such-collection", "d1", Map.of("team", "billing"))).isZero();
        assertThatThrownBy(() -> index.replaceMetadata("qdrant-test", "d1", Map.of("or", "billing")))
                .as("a key that is a filter word is refused before anything is written")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'or'");
        assertThat(server.payloads("qdrant-test", "d1").values()).singleElement().satisfies(payload ->
                assertThat(payload.get("metadata").getStructValue().getFieldsMap().get("team").getStringValue())
                        .as("control: the stored metadata is unchanged").isEqualTo("payments"));
    }

    private static IndexedChunk chunk(String documentId, int index, float x, float y, float z, Map<String, Object> metadata) {
        return new IndexedChunk("qdrant-test", documentId, "qdrant-test/" + documentId + "#" + index, index, "Title",
                "file:///" + documentId, List.of("Intro"), "text " + documentId + " " + index, "context", new float[] {x, y, z}, metadata);
    }

    private static IndexedChunk chunk(String documentId, int index, float x, float y, float z) {
        return new IndexedChunk("qdrant-test", documentId, "qdrant-test/" + documentId + "#" + index, index, "Title",
                "file:///" + documentId, List.of("Intro"), "text " + documentId + " " + index, "context", new float[] {x, y, z});
    }
}
