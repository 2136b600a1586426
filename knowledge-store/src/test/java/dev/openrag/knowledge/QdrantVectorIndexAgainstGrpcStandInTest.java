package dev.openrag.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.knowledge.qdrant.QdrantVectorIndex;
import io.qdrant.client.QdrantClient;
import io.qdrant.client.QdrantGrpcClient;

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

    private static IndexedChunk chunk(String documentId, int index, float x, float y, float z) {
        return new IndexedChunk("qdrant-test", documentId, "qdrant-test/" + documentId + "#" + index, index, "Title",
                "file:///" + documentId, List.of("Intro"), "text " + documentId + " " + index, "context", new float[] {x, y, z});
    }
}
