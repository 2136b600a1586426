package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Issues 68 and 72: {@code openrag reindex [-c C]} calls the collection's reindex and sums up what was rebuilt and placed. */
class ReindexCommandAgainstRecordingServerTest {

    private RecordingServer server;

    @BeforeEach
    void start() throws Exception {
        server = new RecordingServer()
                .answer("/api/collections/notes/reindex", () -> new RecordingServer.Answer(200,
                        "{\"collection\":\"notes\",\"rebuilt\":2,\"documentIds\":[\"d1\",\"d2\"],\"placed\":3}"))
                .answer("/api/collections/default/reindex", () -> new RecordingServer.Answer(200,
                        "{\"collection\":\"default\",\"rebuilt\":0,\"documentIds\":[],\"placed\":0}"))
                .answer("/api/collections/bad name/reindex", () -> new RecordingServer.Answer(400,
                        "{\"error\":\"bad_request\",\"message\":\"invalid collection name 'bad name'\"}"));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aCollectionsDocumentsWithoutTextsAreRebuiltAndSummedUp() {
        String[] result = RecordingServer.runWithErrors("reindex", "-c", "notes", "--url", server.url());
        assertThat(result[0]).isEqualTo("0");
        assertThat(server.requests).singleElement().asString().startsWith("POST /api/collections/notes/reindex ");
        assertThat(result[1].strip().lines()).containsExactly("rebuilt d1", "rebuilt d2", "reindex collection=notes rebuilt=2 placed=3");

        // the control: without -c, the default collection, with nothing to rebuild
        String[] none = RecordingServer.runWithErrors("reindex", "--url", server.url());
        assertThat(none[1].strip()).isEqualTo("reindex collection=default rebuilt=0 placed=0");
    }

    @Test
    void aRefusedCollectionIsAClearErrorWithAFailingExitCode() {
        String[] result = RecordingServer.runWithErrors("reindex", "-c", "bad name", "--url", server.url());
        assertThat(result[0]).isNotEqualTo("0");
        assertThat(result[2]).contains("invalid collection name 'bad name'");
        assertThat(server.requests).singleElement().asString().startsWith("POST /api/collections/bad%20name/reindex ");
    }
}
