package dev.openrag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.knowledge.access.ApiKey;
import dev.openrag.knowledge.access.KeySecrets;
import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.neo4j.Neo4jKeyStore;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.PackagedIngestApp;
import dev.openrag.localstack.test.TestStack;

/**
 * API keys on the ingest API of the packaged app with auth on (keys in the real Neo4j, as
 * {@code ./openrag keys create} stores them): no key is a 401, a read key cannot ingest, delete,
 * crawl or redrive, a write key only reaches its collections and their jobs, dead letters are for
 * admins, a revoked key stops at once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiKeysIT {

    private static final String ADMIN = "ingest-it-admin-key";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private PackagedIngestApp app;
    /** The one folder the app may sync from: made by the test, wherever the checkout and the temp folder are. */
    private Path roots;
    private Driver driver;
    private Neo4jKeyStore keys;

    @BeforeAll
    void start() throws Exception {
        roots = Files.createTempDirectory("keys-it-roots").toRealPath();
        StackConfig stack = TestStack.ensureAll();
        driver = GraphDatabase.driver(stack.neo4jUri(), AuthTokens.none());
        keys = new Neo4jKeyStore(driver);
        app = new PackagedIngestApp("ingest-keys-it", stack, Map.of("OPENRAG_AUTH_ADMIN_KEY", ADMIN,
                "OPENRAG_SOURCES_ALLOWED_ROOTS", roots.toString()));
        app.start();
    }

    @AfterAll
    void stop() {
        if (app != null) {
            app.close();
        }
        if (driver != null) {
            driver.close();
        }
    }

    private String key(Role role, Set<String> collections) {
        String secret = KeySecrets.newSecret();
        keys.create(new ApiKey(UUID.randomUUID().toString(), "it " + role.id(), role, collections, Set.of(), Instant.now(), null),
                KeySecrets.hash(secret));
        return secret;
    }

    private HttpResponse<String> send(String method, String path, String key, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(app.base + path)).timeout(Duration.ofSeconds(30))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String text(String collection) throws Exception {
        return JSON.writeValueAsString(IngestTestSupport.textDocument(collection, "note://keys/" + collection, "Keys note",
                "Only holders of a write key for this collection may add this note."));
    }

    private static void assertStatus(HttpResponse<String> response, int status, String error) throws Exception {
        assertThat(response.statusCode()).as(response.request().method() + " " + response.request().uri() + ": " + response.body())
                .isEqualTo(status);
        assertThat(JSON.readTree(response.body()).path("error").asText()).isEqualTo(error);
    }

    @Test
    void everySurfaceNeedsTheRightKey() throws Exception {
        String reader = key(Role.READ, Set.of("*"));
        String alphaWriter = key(Role.WRITE, Set.of("keys-alpha"));
        String betaReader = key(Role.READ, Set.of("keys-beta"));

        // no key, or a wrong one
        assertStatus(send("POST", "/api/documents", null, text("keys-alpha")), 401, "unauthorized");
        assertStatus(send("GET", "/api/dlq", null, null), 401, "unauthorized");
        assertStatus(send("GET", "/api/collections/keys-alpha/stats", "ork_wrong", null), 401, "unauthorized");
        assertThat(send("GET", "/q/health/live", null, null).statusCode()).isEqualTo(200);

        // a read key reads but cannot ingest, delete, crawl or redrive
        assertStatus(send("POST", "/api/documents", reader, text("keys-alpha")), 403, "forbidden");
        assertStatus(send("DELETE", "/api/documents/some-doc?collection=keys-alpha", reader, null), 403, "forbidden");
        assertStatus(send("POST", "/api/crawls", reader, "{\"seedUrls\":[\"https://example.org/\"],\"collection\":\"keys-alpha\"}"),
                403, "forbidden");
        assertStatus(send("POST", "/api/corpus?collection=keys-alpha", reader, "[]"), 403, "forbidden");
        assertThat(send("GET", "/api/collections/keys-alpha/stats", reader, null).statusCode()).isEqualTo(200);

        // a write key reaches its collection only, and the jobs it started; other keys see those jobs by collection
        assertStatus(send("POST", "/api/documents", alphaWriter, text("keys-beta")), 403, "forbidden");
        HttpResponse<String> accepted = send("POST", "/api/documents", alphaWriter, text("keys-alpha"));
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        String jobId = JSON.readTree(accepted.body()).get("jobId").asText();
        assertThat(send("GET", "/api/jobs/" + jobId, alphaWriter, null).statusCode()).isEqualTo(200);
        assertThat(send("GET", "/api/jobs/" + jobId, ADMIN, null).statusCode()).isEqualTo(200);
        assertStatus(send("GET", "/api/jobs/" + jobId, betaReader, null), 403, "forbidden");
        // the recent jobs list only those of granted collections
        assertThat(send("GET", "/api/jobs", alphaWriter, null).body()).contains("\"jobId\":\"" + jobId + "\"");
        assertThat(send("GET", "/api/jobs?limit=100", betaReader, null).body()).startsWith("{\"jobs\":[").doesNotContain(jobId);
        assertStatus(send("GET", "/api/collections/keys-alpha/stats", betaReader, null), 403, "forbidden");

        // dead letters are for admins
        assertStatus(send("GET", "/api/dlq", alphaWriter, null), 403, "forbidden");
        assertStatus(send("POST", "/api/dlq/redrive", alphaWriter, "{\"all\":true}"), 403, "forbidden");
        assertThat(send("GET", "/api/dlq", ADMIN, null).statusCode()).isEqualTo(200);
        // and so are credentials: a write key can neither read their names nor store one
        assertStatus(send("GET", "/api/credentials", alphaWriter, null), 403, "forbidden");
        assertStatus(send("POST", "/api/credentials", alphaWriter,
                "{\"name\":\"mine\",\"collections\":[\"keys-alpha\"],\"sites\":[\"https://example.org\"],\"values\":{\"p\":\"v\"}}"), 403,
                "forbidden");
        assertThat(send("GET", "/api/credentials", ADMIN, null).statusCode()).isEqualTo(200);

        // and the document the write key sent is ingested in full
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        JsonNode job;
        do {
            Thread.sleep(500);
            job = JSON.readTree(send("GET", "/api/jobs/" + jobId, alphaWriter, null).body());
            assertThat(System.nanoTime()).as("job finishes: " + job).isLessThan(deadline);
        } while (job.path("state").asText().equals("running"));
        assertThat(job.path("state").asText()).isEqualTo("completed");

        // a document's timeline needs its collection's grant (issue 63)
        String timeline = "/api/documents/" + JSON.readTree(accepted.body()).get("documentIds").get(0).asText() + "/timeline?collection=keys-alpha";
        assertThat(send("GET", timeline, alphaWriter, null).statusCode()).isEqualTo(200);
        assertStatus(send("GET", timeline, betaReader, null), 403, "forbidden");

        // sources (issue 62): the write role, the collection's grant, and folders only under the operator's roots
        String folder = "{\"type\":\"folder\",\"location\":\"/etc\",\"collection\":\"keys-alpha\"}";
        assertStatus(send("POST", "/api/sources", reader, folder), 403, "forbidden");
        assertStatus(send("POST", "/api/sources", alphaWriter, folder.replace("keys-alpha", "keys-beta")), 403, "forbidden");
        HttpResponse<String> outside = send("POST", "/api/sources", alphaWriter, folder);
        assertStatus(outside, 403, "forbidden");
        assertThat(outside.body()).as("a folder outside the operator's roots is never synced").contains("openrag.sources.allowed-roots");

        // sources that exist, in two collections: each key sees and touches only its collections' sources
        String betaWriter = key(Role.WRITE, Set.of("keys-beta"));
        String alphaSource = source(alphaWriter, "keys-alpha");
        String betaSource = source(betaWriter, "keys-beta");
        assertThat(ids(send("GET", "/api/sources", betaReader, null))).contains(betaSource).doesNotContain(alphaSource);
        assertThat(ids(send("GET", "/api/sources", alphaWriter, null))).contains(alphaSource).doesNotContain(betaSource);
        assertThat(ids(send("GET", "/api/sources", reader, null))).as("a key granted every collection").contains(alphaSource, betaSource);
        for (String path : List.of("", "/runs", "/runs/any")) {
            assertStatus(send("GET", "/api/sources/" + alphaSource + path, betaReader, null), 403, "forbidden");
        }
        assertStatus(send("POST", "/api/sources/" + alphaSource + "/run", betaWriter, null), 403, "forbidden");
        assertStatus(send("DELETE", "/api/sources/" + alphaSource, betaWriter, null), 403, "forbidden");
        assertStatus(send("POST", "/api/sources/" + betaSource + "/run", betaReader, null), 403, "forbidden");
        assertThat(send("GET", "/api/sources/" + alphaSource, alphaWriter, null).statusCode()).as("the control").isEqualTo(200);
        HttpResponse<String> run = send("POST", "/api/sources/" + betaSource + "/run", betaWriter, null);
        assertThat(run.statusCode()).as(run.body()).isEqualTo(202);
        String runId = JSON.readTree(run.body()).path("runId").asText();
        assertThat(send("GET", "/api/sources/" + betaSource + "/runs/" + runId, betaReader, null).statusCode()).isEqualTo(200);
        assertThat(send("DELETE", "/api/sources/" + alphaSource, alphaWriter, null).statusCode()).isEqualTo(200);
        assertThat(send("GET", "/api/sources/" + alphaSource, alphaWriter, null).statusCode()).isEqualTo(404);
    }

    /** A folder source of {@code collection}, made through the API with {@code key}; its id. */
    private String source(String key, String collection) throws Exception {
        Path folder = Files.createDirectories(roots.resolve(collection));
        Files.writeString(folder.resolve("note.md"), "A note of " + collection + ".");
        HttpResponse<String> created = send("POST", "/api/sources", key,
                JSON.writeValueAsString(Map.of("type", "folder", "location", folder.toString(), "collection", collection)));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return JSON.readTree(created.body()).path("id").asText();
    }

    private static List<String> ids(HttpResponse<String> listed) throws Exception {
        assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
        List<String> ids = new java.util.ArrayList<>();
        JSON.readTree(listed.body()).forEach(source -> ids.add(source.path("id").asText()));
        return ids;
    }

    @Test
    void aRevokedKeyStopsAtTheNextRequest() throws Exception {
        String secret = key(Role.WRITE, Set.of("keys-gamma"));
        assertThat(send("GET", "/api/collections/keys-gamma/stats", secret, null).statusCode()).isEqualTo(200);
        keys.revoke(keys.findActive(KeySecrets.hash(secret)).orElseThrow().id());
        assertStatus(send("GET", "/api/collections/keys-gamma/stats", secret, null), 401, "unauthorized");
    }
}
