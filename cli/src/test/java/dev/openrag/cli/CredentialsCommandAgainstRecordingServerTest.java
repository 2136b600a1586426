package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code openrag credentials} against a JDK HTTP server that records what it is sent and answers as
 * ingest-pipeline's {@code /api/credentials} does (CrawlerTest covers the real endpoint): the values go
 * to the server once, from the command line or the command's own environment, and are never printed.
 */
class CredentialsCommandAgainstRecordingServerTest {

    private RecordingServer server;

    @BeforeEach
    void start() throws Exception {
        server = new RecordingServer().answer("/api/credentials", () -> new RecordingServer.Answer(201,
                "{\"name\":\"intranet\",\"collections\":[\"wiki\"],\"fields\":[\"password\",\"user\"],\"createdAt\":\"2026-11-28T00:00:00Z\"}"));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void createSendsTheValuesOnceAndPrintsOnlyTheFieldNames() {
        String printed = RecordingServer.run("credentials", "create", "--name", "intranet", "--collections", "wiki",
                "--value", "user=crawler", "--value", "password=pa=ss", "--url", server.url());
        assertThat(server.requests).singleElement().asString().startsWith("POST /api/credentials")
                .contains("\"name\":\"intranet\"").contains("\"collections\":[\"wiki\"]")
                .contains("\"user\":\"crawler\"").contains("\"password\":\"pa=ss\"");
        assertThat(printed).contains("credential name=intranet collections=wiki fields=password,user").doesNotContain("pa=ss");
    }

    @Test
    void badValuesAreClearErrorsThatSendNothing() {
        String missing = errorOf("credentials", "create", "--name", "n", "--collections", "wiki", "--value-env", "password=OPENRAG_NO_SUCH_VAR_X",
                "--url", server.url());
        assertThat(missing).contains("variable OPENRAG_NO_SUCH_VAR_X is not set");
        assertThat(errorOf("credentials", "create", "--name", "n", "--collections", "wiki", "--value", "novalue", "--url", server.url()))
                .contains("--value takes FIELD=...");
        assertThat(errorOf("credentials", "create", "--name", "n", "--collections", "wiki", "--url", server.url()))
                .contains("at least one --value");
        assertThat(server.requests).isEmpty();
    }

    private static String errorOf(String... args) {
        PrintStream original = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertThat(OpenRagCommand.execute(args)).isEqualTo(1);
        } finally {
            System.setErr(original);
        }
        return err.toString(StandardCharsets.UTF_8);
    }
}
