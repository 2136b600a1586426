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
                "{\"name\":\"intranet\",\"collections\":[\"wiki\"],\"sites\":[\"https://wiki.example\"],\"fields\":[\"password\",\"user\"],"
                        + "\"state\":\"usable\",\"createdAt\":\"2026-11-28T00:00:00Z\"}"));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void createSendsTheValuesOnceAndPrintsOnlyTheFieldNames() {
        String printed = RecordingServer.run("credentials", "create", "--name", "intranet", "--collections", "wiki",
                "--sites", "https://wiki.example,http://wiki.local:8080", "--value", "user=crawler", "--value", "password=pa=ss",
                "--url", server.url());
        assertThat(server.requests).singleElement().asString().startsWith("POST /api/credentials")
                .contains("\"name\":\"intranet\"").contains("\"collections\":[\"wiki\"]")
                .contains("\"sites\":[\"https://wiki.example\",\"http://wiki.local:8080\"]")
                .contains("\"user\":\"crawler\"").contains("\"password\":\"pa=ss\"");
        assertThat(printed).contains("credential name=intranet collections=wiki sites=https://wiki.example fields=password,user state=usable")
                .doesNotContain("pa=ss");
    }

    @Test
    void updateReplacesOnlyWhatItNames() {
        String printed = RecordingServer.run("credentials", "update", "intranet", "--sites", "https://wiki.example", "--url", server.url());
        assertThat(server.requests).singleElement().asString().startsWith("PATCH /api/credentials/intranet ")
                .endsWith("{\"sites\":[\"https://wiki.example\"]}");
        assertThat(printed).contains("credential name=intranet collections=wiki sites=https://wiki.example");
        assertThat(errorOf("credentials", "update", "intranet", "--url", server.url())).contains("give --sites and/or --collections");
        assertThat(server.requests).as("an update naming nothing sends nothing").hasSize(1);
    }

    @Test
    void listShowsAnUnusableCredentialAndWhy() throws Exception {
        try (RecordingServer listing = new RecordingServer().answer("/api/credentials", () -> new RecordingServer.Answer(200,
                "{\"credentials\":[{\"name\":\"old\",\"collections\":[\"*\"],\"sites\":[],\"fields\":[\"password\"],"
                        + "\"state\":\"unusable\",\"reason\":\"credential 'old' names no sites, so it is typed nowhere\"},"
                        + "{\"name\":\"wiki\",\"collections\":[\"wiki\"],\"sites\":[\"https://wiki.example\"],\"fields\":[\"password\"],"
                        + "\"state\":\"usable\"}]}"))) {
            String printed = RecordingServer.run("credentials", "list", "--url", listing.url());
            assertThat(printed).contains("credential name=old collections=* sites=- fields=password state=unusable")
                    .contains("  credential 'old' names no sites")
                    .contains("credential name=wiki collections=wiki sites=https://wiki.example fields=password state=usable")
                    .contains("credentials=2");
        }
    }

    @Test
    void badValuesAreClearErrorsThatSendNothing() {
        String missing = errorOf("credentials", "create", "--name", "n", "--collections", "wiki", "--sites", "https://wiki.example",
                "--value-env", "password=OPENRAG_NO_SUCH_VAR_X",
                "--url", server.url());
        assertThat(missing).contains("variable OPENRAG_NO_SUCH_VAR_X is not set");
        assertThat(errorOf("credentials", "create", "--name", "n", "--collections", "wiki", "--sites", "https://wiki.example",
                "--value", "novalue", "--url", server.url()))
                .contains("--value takes FIELD=...");
        // a value given without its field name (the field forgotten) is not echoed to the terminal or a CI log
        assertThat(errorOf("credentials", "create", "--name", "n", "--collections", "wiki", "--sites", "https://wiki.example",
                "--value", "hunter2-forgot-the-field", "--url", server.url()))
                .contains("--value takes FIELD=...").doesNotContain("hunter2");
        assertThat(errorOf("credentials", "create", "--name", "n", "--collections", "wiki", "--sites", "https://wiki.example",
                "--url", server.url())).contains("at least one --value");
        String[] noSites = RecordingServer.runWithErrors("credentials", "create", "--name", "n", "--collections", "wiki", "--value", "p=v",
                "--url", server.url());
        assertThat(noSites[0]).as("a credential names its sites").isNotEqualTo("0");
        assertThat(noSites[2]).contains("--sites");
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
