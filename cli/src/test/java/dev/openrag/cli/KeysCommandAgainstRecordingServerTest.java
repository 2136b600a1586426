package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code openrag keys} against a JDK HTTP server that records what it is sent and answers as
 * query-api's {@code /api/keys} does (query-api's own tests cover the real endpoint): the CLI
 * sends the key of OPENRAG_API_KEY as a bearer token, the grants as JSON lists, and prints the
 * secret once; a 401 says to set OPENRAG_API_KEY.
 */
class KeysCommandAgainstRecordingServerTest {

    private RecordingServer server;
    private List<String> requests;
    private volatile int status = 201;

    @BeforeEach
    void start() throws Exception {
        server = new RecordingServer().answer("/api/keys", () -> new RecordingServer.Answer(status, status == 401
                ? "{\"error\":\"unauthorized\",\"message\":\"unknown or revoked API key\"}"
                : "{\"key\":{\"id\":\"k-1\",\"name\":\"ci bot\",\"role\":\"read\",\"collections\":[\"docs\",\"code\"],\"scopes\":[]},"
                + "\"secret\":\"ork_s3cret\"}"));
        requests = server.requests;
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void createSendsTheGrantsAndPrintsTheSecretOnce() {
        String printed = RecordingServer.run("keys", "create", "--name", "ci bot", "--role", "read", "--collections", "docs,code", "--query-url", server.url());
        assertThat(requests).singleElement().asString().startsWith("POST /api/keys")
                .contains("\"role\":\"read\"").contains("\"collections\":[\"docs\",\"code\"]").contains("\"scopes\":[]");
        assertThat(printed).contains("key id=k-1 name=\"ci bot\" role=read collections=code,docs scopes=-")
                .contains("secret ork_s3cret");
    }

    @Test
    void theKeyTravelsAsABearerTokenAndA401SaysWhatToSet() {
        new ApiClient(server.url(), "ork_admin").get("/api/keys");
        assertThat(requests).singleElement().asString().contains("auth=Bearer ork_admin");
        status = 401;
        try {
            new ApiClient(server.url(), null).get("/api/keys");
            throw new AssertionError("a 401 must fail");
        } catch (RuntimeException e) {
            assertThat(e.getMessage()).contains("HTTP 401").contains("set OPENRAG_API_KEY");
        }
    }
}
