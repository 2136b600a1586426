package dev.openrag.query.access;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.localstack.test.AppSettings;
import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.query.FixtureTest;
import dev.openrag.query.SearchFixture;
import dev.openrag.schemas.GraphExtracted;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;

/**
 * API keys on query-api with auth on (real Neo4j, OpenSearch): no key is a 401, a key without
 * the collection a 403 (not an empty 200), a read key changes nothing, a revoked key stops at once,
 * and a canary collection and a canary memory scope never show in another key's answers, in any
 * search mode, ask, browse or graph. The admin key's answers do carry the canary: the check can fail.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
// what is judged is what a key reaches, not speed: a busy machine must not turn a slow store into a missing one
@WithTestResource(value = AppSettings.class, initArgs = {
        @ResourceArg(name = "openrag.auth.admin-key", value = AccessControlTest.ADMIN),
        @ResourceArg(name = "openrag.search.read-timeout", value = "PT30S")})
class AccessControlTest extends FixtureTest {

    static final String ADMIN = "query-test-admin-key";
    static final String VAULT = "canary-vault";
    static final String CANARY = "CANARY7F3E";
    static final String FIXTURE = SearchFixture.COLLECTION;
    static final List<String> MODES = List.of("hybrid", "vector", "bm25", "graph", "summary", "hybrid_expanded", "automatic");

    private static boolean vaultLoaded;

    @BeforeEach
    void loadVault() {
        if (vaultLoaded) {
            return;
        }
        // the canary shares the fixture's words, so only the collection filter keeps it out
        String text = "The scheduler runs queued jobs in parallel on worker threads. " + CANARY;
        String context = "Document: Scheduling guide " + CANARY;
        IndexedChunk chunk = new IndexedChunk(VAULT, "vault-1", VAULT + "/vault-1#0", 0, "Vault " + CANARY, "file:///vault-1",
                List.of(), text, context, embedder.embed(List.of(context + "\n\n" + text)).get(0));
        Neo4jGraphStore graph = new Neo4jGraphStore(driver);
        graph.upsertDocument(VAULT, "vault-1", chunk.title(), chunk.sourceUri(), "h", List.of(chunk), List.of());
        new OpenSearchLexicalIndex(openSearch, true).upsert(List.of(chunk));
        graph.upsertGraph(new GraphExtracted(1, "e-vault", "vault-1", "job", VAULT,
                List.of(new GraphExtracted.Entity("scheduler:term", "Scheduler", "term")), List.of(),
                List.of(new GraphExtracted.Mention(VAULT + "/vault-1#0", "scheduler:term")), null));
        // a pinned memory in a scope only the admin reaches, about the same thing
        as(ADMIN).body(Map.of("scope", "vault-scope", "text", "The scheduler runs queued jobs " + CANARY, "pinned", true))
                .post("/api/memories").then().statusCode(201);
        vaultLoaded = true;
    }

    private static RequestSpecification as(String key) {
        RequestSpecification request = given().contentType(ContentType.JSON);
        return key == null ? request : request.header("Authorization", "Bearer " + key);
    }

    private static String createKey(String role, List<String> collections, List<String> scopes) {
        return as(ADMIN).body(Map.of("name", "test " + role, "role", role, "collections", collections, "scopes", scopes))
                .post("/api/keys").then().statusCode(201).body("key.role", equalTo(role)).body("key.hash", nullValue())
                .extract().path("secret");
    }

    private static ValidatableResponse search(String key, String collection, String mode) {
        return as(key).body(Map.of("query", "scheduler runs queued jobs", "collection", collection, "mode", mode, "k", 10))
                .post("/api/search").then();
    }

    @Test
    void withoutAKeyEveryDataEndpointIs401AndSaysWhy() {
        for (ValidatableResponse response : List.of(
                search(null, FIXTURE, "hybrid"),
                as(null).body(Map.of("question", "what runs jobs?", "collection", FIXTURE)).post("/api/ask").then(),
                as(null).get("/api/collections").then(),
                as(null).queryParam("collection", FIXTURE).get("/api/documents").then(),
                as(null).queryParam("collection", FIXTURE).queryParam("entity", "kafka").get("/api/graph/neighbourhood").then(),
                as(null).queryParam("scope", "vault-scope").get("/api/memories").then(),
                as(null).get("/api/keys").then())) {
            response.statusCode(401).contentType(ContentType.JSON).body("error", equalTo("unauthorized"))
                    .header("WWW-Authenticate", containsString("Bearer"));
        }
        search("ork_not-a-key", FIXTURE, "hybrid").statusCode(401).body("message", containsString("unknown or revoked"));
        as(null).get("/api/auth").then().statusCode(200).body("enabled", equalTo(true)).body("caller", nullValue());
        as(null).get("/api/ui/config").then().statusCode(200).body("authEnabled", equalTo(true));
        as(null).get("/q/health/ready").then().statusCode(200);
    }

    @Test
    void aKeySeesOnlyItsCollectionsInEveryModeAndPath() {
        String reader = createKey("read", List.of(FIXTURE), List.of("team"));
        as(reader).get("/api/auth").then().statusCode(200).body("caller.role", equalTo("read"));
        for (String mode : MODES) {
            search(reader, VAULT, mode).statusCode(403).body("error", equalTo("forbidden"))
                    .body("message", containsString("not granted collection '" + VAULT + "'"));
            String own = search(reader, FIXTURE, mode).statusCode(200).extract().asString();
            assertThat(own).as(mode).doesNotContain(CANARY);
        }
        // the same searches as admin do reach the canary, so the assertions above can fail
        assertThat(search(ADMIN, VAULT, "hybrid").statusCode(200).extract().asString()).contains(CANARY);
        assertThat(search(ADMIN, FIXTURE, "hybrid").statusCode(200).extract().asString()).contains(CANARY); // its pinned memory

        as(reader).body(Map.of("question", "what runs queued jobs?", "collection", VAULT)).post("/api/ask").then().statusCode(403);
        assertThat(as(reader).body(Map.of("question", "what runs queued jobs?", "collection", FIXTURE)).post("/api/ask")
                .then().statusCode(200).extract().asString()).doesNotContain(CANARY);
        as(reader).accept("text/event-stream").body(Map.of("question", "what runs jobs?", "collection", VAULT)).post("/api/ask")
                .then().statusCode(403);
        as(reader).queryParam("collection", VAULT).get("/api/documents").then().statusCode(403);
        as(reader).queryParam("collection", VAULT).get("/api/documents/vault-1").then().statusCode(403);
        as(reader).queryParam("collection", VAULT).get("/api/documents/vault-1/text").then().statusCode(403);
        as(reader).queryParam("collection", VAULT).queryParam("entity", "scheduler").get("/api/graph/neighbourhood").then().statusCode(403);
        as(reader).get("/api/collections").then().statusCode(200)
                .body("collections.name", hasItem(FIXTURE)).body("collections.name", not(hasItem(VAULT)));
        as(ADMIN).get("/api/collections").then().statusCode(200).body("collections.name", hasItem(VAULT));
        // memory scopes: named or not, the key's scopes bound what comes back
        as(reader).queryParam("scope", "vault-scope").get("/api/memories").then().statusCode(403);
        as(reader).body(Map.of("query", "x", "collection", FIXTURE, "scopes", List.of("vault-scope"))).post("/api/search").then().statusCode(403);
    }

    @Test
    void severalCollectionsReachOnlyTheGrantedOnes() {
        String reader = createKey("read", List.of(FIXTURE), List.of("team"));
        // naming one it lacks among others: a 403 naming that one, in search, ask and facets
        as(reader).body(Map.of("query", "scheduler runs queued jobs", "collections", List.of(FIXTURE, VAULT))).post("/api/search")
                .then().statusCode(403).body("error", equalTo("forbidden")).body("message", containsString("'" + VAULT + "'"))
                .body("message", not(containsString("'" + FIXTURE + "'")));
        as(reader).body(Map.of("question", "what runs queued jobs?", "collections", List.of(FIXTURE, VAULT))).post("/api/ask")
                .then().statusCode(403).body("message", containsString(VAULT));
        as(reader).queryParam("collection", VAULT).queryParam("field", "team").get("/api/facets").then().statusCode(403);
        as(reader).queryParam("collection", FIXTURE).queryParam("field", "team").get("/api/facets").then().statusCode(200);
        // "*": every granted one, and no other, in every mode
        for (String mode : MODES) {
            String every = as(reader).body(Map.of("query", "scheduler runs queued jobs", "collections", "*", "mode", mode))
                    .post("/api/search").then().statusCode(200).body("results.collection", everyItem(equalTo(FIXTURE)))
                    .extract().asString();
            assertThat(every).as(mode).doesNotContain(CANARY);
        }
        // the control: the admin's "*" does reach the vault
        as(ADMIN).body(Map.of("query", "scheduler runs queued jobs", "collections", "*", "k", 20)).post("/api/search")
                .then().statusCode(200).body("results.collection", hasItem(VAULT)).body("collections", hasItem(FIXTURE));
        // a key granted no collection: "*" is a 403 that says so, not an empty 200
        String none = createKey("read", List.of(), List.of());
        as(none).body(Map.of("query", "scheduler", "collections", List.of("*"))).post("/api/search").then().statusCode(403)
                .body("message", containsString("granted no collection"));
        as(none).body(Map.of("question", "what runs jobs?", "collections", "*")).post("/api/ask").then().statusCode(403);
    }

    @Test
    void aReadKeyChangesNothingAndOnlyAdminsManageKeys() {
        String reader = createKey("read", List.of("*"), List.of("*"));
        String writer = createKey("write", List.of(FIXTURE), List.of("team"));
        as(reader).body(Map.of("query", "q", "chunkId", FIXTURE + "/doc-1#0", "helpful", true)).post("/api/feedback").then()
                .statusCode(403).body("error", equalTo("forbidden"));
        as(reader).body(Map.of("scope", "team", "text", "planted")).post("/api/memories").then().statusCode(403);
        as(writer).body(Map.of("scope", "team", "text", "the standup is at ten")).post("/api/memories").then().statusCode(201);
        as(writer).body(Map.of("scope", "vault-scope", "text", "planted")).post("/api/memories").then().statusCode(403);
        // the batch endpoint: the same key rules, idempotent on ids, bounded
        Map<String, Object> batch = Map.of("scope", "team", "memories", List.of(
                Map.of("id", "team-standup", "text", "the standup moved to 9:30", "speaker", "Ana", "occurredAt", "2023-05-08"),
                Map.of("id", "team-retro", "text", "the retro is on Fridays")));
        as(writer).body(batch).post("/api/memories:batch").then().statusCode(200).body("added", equalTo(2));
        as(writer).body(batch).post("/api/memories:batch").then().statusCode(200).body("added", equalTo(0)).body("existing", equalTo(2));
        as(reader).body(batch).post("/api/memories:batch").then().statusCode(403);
        as(writer).body(Map.of("scope", "vault-scope", "memories", List.of(Map.of("text", "planted")))).post("/api/memories:batch")
                .then().statusCode(403);
        as(writer).body(Map.of("scope", "team", "memories", Collections.nCopies(501, Map.of("text", "x"))))
                .post("/api/memories:batch").then().statusCode(400).body("message", containsString("1 to 500 memories"));
        as(writer).body(Map.of("scope", "team", "memories", List.of(Map.of("text", "x", "occurredAt", "next week"))))
                .post("/api/memories:batch").then().statusCode(400).body("message", containsString("memories[0].occurredAt"));
        as(writer).body(Map.of("query", "q", "chunkId", VAULT + "/vault-1#0", "helpful", false)).post("/api/feedback").then().statusCode(403);
        as(writer).body(Map.of("query", "q", "chunkId", FIXTURE + "/doc-1#0", "helpful", true)).post("/api/feedback").then().statusCode(201);
        for (String key : List.of(reader, writer)) {
            as(key).get("/api/keys").then().statusCode(403);
            as(key).body(Map.of("name", "escalate", "role", "admin", "collections", List.of("*"), "scopes", List.of("*")))
                    .post("/api/keys").then().statusCode(403);
        }
        // the listing never shows a secret or its hash
        String listing = as(ADMIN).get("/api/keys").then().statusCode(200).body("keys", notNullValue()).extract().asString();
        assertThat(listing).doesNotContain(reader).doesNotContain(writer).doesNotContain("hash");
    }

    @Test
    void aRevokedKeyStopsAtTheNextRequest() {
        String secret = createKey("read", List.of(FIXTURE), List.of());
        search(secret, FIXTURE, "bm25").statusCode(200);
        String id = as(secret).get("/api/auth").then().statusCode(200).extract().path("caller.keyId");
        as(ADMIN).delete("/api/keys/" + id).then().statusCode(204);
        search(secret, FIXTURE, "bm25").statusCode(401);
        as(ADMIN).delete("/api/keys/no-such-key").then().statusCode(404).body("error", equalTo("not_found"));
    }

    @Test
    void badKeyRequestsAreClear400s() {
        as(ADMIN).body(Map.of("name", "x", "role", "root")).post("/api/keys").then().statusCode(400)
                .body("message", containsString("read, write or admin"));
        as(ADMIN).body(Map.of("role", "read")).post("/api/keys").then().statusCode(400).body("message", containsString("'name'"));
        as(ADMIN).body(Map.of("name", "x", "role", "read", "collections", List.of("../etc"))).post("/api/keys").then().statusCode(400)
                .body("message", containsString("'collections'"));
        as(ADMIN).body(Map.of("name", "x", "role", "read", "scopes", List.of(""))).post("/api/keys").then().statusCode(400);
        as(ADMIN).contentType(ContentType.JSON).body("{not json").post("/api/keys").then().statusCode(400);
    }
}
