package dev.openrag.knowledge.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch.generic.Requests;

import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.localstack.Engine;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.LocalStackExtension.WithEngines;
import dev.openrag.schemas.Metadata;

/**
 * A collection's metadata fields are reserved when a document is let in, against real OpenSearch: near the
 * limit, documents checked one after another before any is written, and writers on several instances
 * reserving at once, get the last room once, never past it; the one let in is then written.
 */
@WithEngines({Engine.OPENSEARCH})
class MetadataFieldLimitTest {

    private static OpenSearchClient openSearch;

    @BeforeAll
    static void connect(StackConfig config) {
        openSearch = OpenSearchClients.create(config.openSearchUrl());
    }

    @Test
    void documentsCheckedOneAfterAnotherBeforeAnyIsWrittenSeeEachOthersFields() {
        String collection = "field-batch";
        OpenSearchLexicalIndex parse = new OpenSearchLexicalIndex(openSearch, true);
        fill(parse, collection, Metadata.MAX_COLLECTION_FIELDS - 1);

        parse.reserveMetadataFields(collection, Map.of("first", "x"));
        assertThatThrownBy(() -> parse.reserveMetadataFields(collection, Map.of("second", "y")))
                .as("the first document's key is the collection's now, though none of its chunks is written yet")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most " + Metadata.MAX_COLLECTION_FIELDS)
                .hasMessageContaining("second (text)").hasMessageContaining("fields of documents since deleted still count");
        // the sink (another instance, its own view of the mapping) takes the document let in
        new OpenSearchLexicalIndex(openSearch, true).upsert(List.of(chunk(collection, "first-doc", Map.of("first", "x"))));
        assertThat(new OpenSearchLexicalIndex(openSearch, true).countChunks(collection)).isEqualTo(1);
        // controls: a known key still passes, and a known key with a new kind is a new field
        parse.reserveMetadataFields(collection, Map.of("first", "z", "k1", "v"));
        assertThatThrownBy(() -> parse.reserveMetadataFields(collection, Map.of("first", 5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("first (number)");
        assertThat(ChunkIndex.metadataFields(openSearch, collection)).hasSize(Metadata.MAX_COLLECTION_FIELDS);
    }

    @Test
    void writersOnSeveralInstancesReservingAtOnceGetTheLastRoomOnce() throws Exception {
        String collection = "field-race";
        int room = 2;
        fill(new OpenSearchLexicalIndex(openSearch, true), collection, Metadata.MAX_COLLECTION_FIELDS - room);
        int writers = 6;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> outcomes = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                // each its own instance: none has seen another's fields
                OpenSearchLexicalIndex writer = new OpenSearchLexicalIndex(openSearch, true);
                String key = "racer" + i;
                outcomes.add(pool.submit(() -> {
                    start.await();
                    try {
                        writer.reserveMetadataFields(collection, Map.of(key, "x"));
                        return true;
                    } catch (IllegalArgumentException refused) {
                        assertThat(refused).hasMessageContaining("at most " + Metadata.MAX_COLLECTION_FIELDS).hasMessageContaining(key);
                        return false;
                    }
                }));
            }
            start.countDown();
            long passed = 0;
            for (Future<Boolean> outcome : outcomes) {
                passed += outcome.get(60, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(passed).as("as many writers pass as there was room").isEqualTo(room);
        } finally {
            pool.shutdownNow();
        }
        assertThat(ChunkIndex.metadataFields(openSearch, collection)).hasSize(Metadata.MAX_COLLECTION_FIELDS);

        // OpenSearch holds the limit itself: one more field put straight into the mapping is refused
        assertThatThrownBy(() -> ChunkIndex.mapMetadataFields(openSearch, collection, List.of("meta_s.straight")))
                .isInstanceOf(ChunkIndex.FieldLimitReached.class);
    }

    @Test
    void anIndexMadeBeforeTheLimitGetsItWhenFieldsAreReserved() throws Exception {
        String collection = "field-old-index";
        String withoutLimit = ChunkIndex.SETTINGS_AND_MAPPINGS.formatted(1000);
        try (var response = openSearch.generic().execute(Requests.builder().method("PUT")
                .endpoint("/" + ChunkIndex.name(collection)).json(withoutLimit).build())) {
            assertThat(response.getStatus()).isEqualTo(200);
        }
        new OpenSearchLexicalIndex(openSearch, true).reserveMetadataFields(collection, Map.of("team", "a"));
        var settings = openSearch.indices().getSettings(s -> s.index(ChunkIndex.name(collection))).result()
                .get(ChunkIndex.name(collection)).settings();
        assertThat(settings.index().mapping().totalFields().limit()).isEqualTo((long) ChunkIndex.FIELD_LIMIT);
    }

    /** Reserves {@code fields} text fields in the collection, as many keys a call as a document may have. */
    private static void fill(OpenSearchLexicalIndex index, String collection, int fields) {
        for (int start = 0; start < fields; start += Metadata.MAX_KEYS) {
            Map<String, Object> keys = new HashMap<>();
            for (int k = start; k < Math.min(start + Metadata.MAX_KEYS, fields); k++) {
                keys.put("k" + k, "v");
            }
            index.reserveMetadataFields(collection, keys);
        }
        assertThat(ChunkIndex.metadataFields(openSearch, collection)).hasSize(fields);
    }

    private static IndexedChunk chunk(String collection, String documentId, Map<String, Object> metadata) {
        return new IndexedChunk(collection, documentId, collection + "/" + documentId + "#0", 0, "Title", "notes://" + documentId,
                List.of(), "text", "context", null, metadata);
    }
}
