package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

/**
 * {@code openrag keys} against a JDK HTTP server that records what it is sent and answers as
 * query-api's {@code /api/keys} does (query-api's own tests cover the real endpoint): the CLI
 * sends the key of OPENRAG_API_KEY as a bearer token, the grants as JSON lists, and prints the
 * secret once; a 401 says to set OPENRAG_API_KEY.
 */
class KeysCommandAgainstRecordingServerTest {

    private HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private volatile int status = 201;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/keys", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " auth=" + exchange.getRequestHeaders()
                    .getFirst("Authorization") + " " + body);
            String answer = status == 401 ? "{\"error\":\"unauthorized\",\"message\":\"unknown or revoked API key\"}"
                    : "{\"key\":{\"id\":\"k-1\",\"name\":\"ci bot\",\"role\":\"read\",\"collections\":[\"docs\",\"code\"],\"scopes\":[]},"
                    + "\"secret\":\"ork_s3cret\"}";
            JsonAnswer.send(exchange, status, answer);
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private String run(String... args) {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            OpenRagCommand.execute(args);
        } finally {
            System.setOut(original);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void createSendsTheGrantsAndPrintsTheSecretOnce() {
        String printed = run("keys", "create", "--name", "ci bot", "--role", "read", "--collections", "docs,code", "--query-url", url());
        assertThat(requests).singleElement().asString().startsWith("POST /api/keys")
                .contains("\"role\":\"read\"").contains("\"collections\":[\"docs\",\"code\"]").contains("\"scopes\":[]");
        assertThat(printed).contains("key id=k-1 name=\"ci bot\" role=read collections=code,docs scopes=-")
                .contains("secret ork_s3cret");
    }

    @Test
    void theKeyTravelsAsABearerTokenAndA401SaysWhatToSet() {
        new ApiClient(url(), "ork_admin").get("/api/keys");
        assertThat(requests).singleElement().asString().contains("auth=Bearer ork_admin");
        status = 401;
        try {
            new ApiClient(url(), null).get("/api/keys");
            throw new AssertionError("a 401 must fail");
        } catch (RuntimeException e) {
            assertThat(e.getMessage()).contains("HTTP 401").contains("set OPENRAG_API_KEY");
        }
    }
}
