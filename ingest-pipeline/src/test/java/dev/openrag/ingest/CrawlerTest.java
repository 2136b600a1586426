package dev.openrag.ingest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.localstack.test.LocalStackTestResource;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.Topics;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * The crawler against a local test site, with Debian's Chromium through Playwright and the real
 * pipeline on real engines: robots.txt, rate limit, login, JS rendering, a PDF, failures with
 * reasons, pages streamed while the crawl runs, and recrawls that update and delete documents.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrawlerTest {

    private static final long SLOW_MILLIS = 6000;

    @Inject
    OpenSearchClient openSearch;

    @Inject
    org.neo4j.driver.Driver neo4j;

    private CrawlTestSite site;

    @BeforeAll
    void startSite() throws Exception {
        site = new CrawlTestSite(SLOW_MILLIS);
    }

    @AfterAll
    void stopSite() {
        site.close();
    }

    private JsonPath awaitCrawl(String crawlId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonPath status;
        do {
            IngestTestSupport.sleep(300);
            status = given().get("/api/crawls/" + crawlId).then().statusCode(200).extract().jsonPath();
            assertThat(System.nanoTime()).as("crawl ends: " + status.prettify()).isLessThan(deadline);
        } while ("running".equals(status.getString("state")));
        return status;
    }

    private List<String> searchTexts(String collection, String query) {
        List<String> texts = new ArrayList<>();
        for (ScoredChunk hit : new OpenSearchLexicalIndex(openSearch, false).search(collection, query, 5)) {
            texts.add(hit.chunk().text());
        }
        return texts;
    }

    @Test
    void crawlsPolitelyWithLoginAndStreamsPagesIntoThePipeline() {
        String collection = "crawl-site";
        given().contentType(ContentType.JSON).body(Map.of("name", "crawl-test-site", "collections", List.of(collection),
                "sites", List.of(site.url("")), "values", Map.of("password", "s3cret"))).post("/api/credentials").then().statusCode(201);
        JsonPath started = given().contentType(ContentType.JSON).body(Map.of(
                "seedUrls", List.of(site.url("/")), "collection", collection, "maxDepth", 2, "maxPages", 50,
                "login", Map.of("url", site.url("/login"),
                        "fields", CrawlTestSite.login(Map.of("credential", "crawl-test-site", "field", "password")),
                        "submit", "#go", "successSelector", "#welcome")))
                .post("/api/crawls").then().statusCode(202).extract().jsonPath();
        String crawlId = started.getString("crawlId");

        // the first page reaches the arrived topic while the crawl is still going (the slow page is last)
        IngestTestSupport.readUntil(Topics.DOCUMENTS_ARRIVED, crawlId, 1, Duration.ofSeconds(60));
        assertThat(given().get("/api/crawls/" + crawlId).then().extract().jsonPath().getString("state")).isEqualTo("running");

        JsonPath crawl = awaitCrawl(crawlId, Duration.ofSeconds(120));
        assertThat(crawl.getString("state")).isEqualTo("completed");
        assertThat(crawl.getString("request.login.fields.'#pass'.credential")).isEqualTo("crawl-test-site");
        assertThat(crawl.getString("request.login.fields.'#user'")).as("a literal is shown hidden").isEqualTo("***");
        Map<String, String> failures = new java.util.HashMap<>();
        crawl.getList("failures", Map.class).forEach(f -> failures.put((String) f.get("url"), (String) f.get("reason")));
        assertThat(failures.get(site.url("/secret/page"))).isEqualTo("disallowed by robots.txt");
        assertThat(failures.get(site.url("/error"))).isEqualTo("HTTP 500");
        assertThat(failures.get(site.url("/slow"))).startsWith("timed out after");
        // home, alpha, beta, js, members area, pdf: the a <-> b cycle fetched once each
        assertThat(crawl.getInt("pages.fetched")).isEqualTo(6);

        IngestTestSupport.awaitJob(started.getString("jobId"), Duration.ofSeconds(120));
        assertThat(searchTexts(collection, "quokkas")).anyMatch(text -> text.contains("Rendered by JavaScript"));
        assertThat(searchTexts(collection, "platypus")).anyMatch(text -> text.contains("Members only"));
        assertThat(searchTexts(collection, "axolotls")).anyMatch(text -> text.contains("Quarterly report"));
        assertThat(searchTexts(collection, "zebras")).hasSize(1);
        assertThat(searchTexts(collection, "narwhals")).isEmpty();
        assertThat(searchTexts(collection, "cookies")).as("footer boilerplate dropped").isEmpty();

        // one request per second per host by default; the tests run at 5/s: the limiter counts 200 ms
        // from the end of one request to the start of the next, so the site sees them at least that
        // far apart, however late a request arrives (unlimited would be ~0 ms)
        List<CrawlTestSite.Request> pages = site.pageRequests().stream()
                .filter(r -> !r.path().equals("/login") && !r.path().equals("/keys") && !r.path().equals("/favicon.ico")
                        && !r.path().startsWith("/changing")
                        && !r.path().startsWith("/vanishing"))
                .toList();
        for (int i = 1; i < pages.size(); i++) {
            assertThat(Duration.ofNanos(pages.get(i).atNanos() - pages.get(i - 1).atNanos()))
                    .as("gap before " + pages.get(i).path()).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        }
    }

    /**
     * The attack of issue 60: a login value written as a reference to the server's environment. The tests' ingest app has
     * CRAWL_TEST_PASSWORD=s3cret in its environment (ingest-pipeline/pom.xml); it must never reach the site.
     */
    @Test
    void aLoginValueNamingAnEnvironmentVariableIsTypedAsItIsNeverResolved() {
        String collection = "crawl-env-reference";
        String crawlId = given().contentType(ContentType.JSON).body(Map.of(
                "seedUrls", List.of(site.url("/a")), "collection", collection, "maxDepth", 0,
                "login", Map.of("url", site.url("/login"), "fields", CrawlTestSite.login("${CRAWL_TEST_PASSWORD}"),
                        "submit", "#go", "successSelector", "#welcome")))
                .post("/api/crawls").then().statusCode(202).extract().path("crawlId");
        JsonPath crawl = awaitCrawl(crawlId, Duration.ofSeconds(60));
        assertThat(crawl.getString("failures[0].reason")).startsWith("login failed");
        assertThat(site.postedLogins).as("the site received the reference as text").contains("user=alice&pass=${CRAWL_TEST_PASSWORD}")
                .noneMatch(form -> form.contains("s3cret"));
    }

    /**
     * Issue 60's attacks on the crawler's browser: a page whose stylesheet, fetch, redirected script
     * and WebSocket aim at 127.0.0.2 (loopback, refused by the fetch rules), a service worker, and a
     * link that redirects there. Nothing reaches 127.0.0.2; the same requests to the site itself do
     * (the positive control); each refused request is on the crawl's report.
     */
    @Test
    void theBrowserSendsNothingToARefusedAddressByScriptSubresourceRedirectWebSocketOrServiceWorker() throws Exception {
        List<String> internalRequests = new java.util.concurrent.CopyOnWriteArrayList<>();
        com.sun.net.httpserver.HttpServer internal = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.2", 0), 0);
        internal.createContext("/", exchange -> {
            internalRequests.add(exchange.getRequestURI().getPath());
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        internal.start();
        try (CrawlTestSite attacker = new CrawlTestSite(SLOW_MILLIS)) {
            String internalBase = "http://127.0.0.2:" + internal.getAddress().getPort();
            attacker.internalBase = internalBase;
            String crawlId = given().contentType(ContentType.JSON).body(Map.of(
                    "seedUrls", List.of(attacker.url("/attack/script")), "collection", "crawl-attacks", "maxDepth", 1))
                    .post("/api/crawls").then().statusCode(202).extract().path("crawlId");
            JsonPath crawl = awaitCrawl(crawlId, Duration.ofSeconds(60));
            IngestTestSupport.sleep(500); // anything the page still sends arrives late, never
            assertThat(internalRequests).as("requests that reached 127.0.0.2").isEmpty();

            List<String> served = attacker.requests.stream().map(CrawlTestSite.Request::path).toList();
            assertThat(served).as("the legitimate twins went through")
                    .contains("/allowed-by-script", "/allowed-websocket", "/redirect-to-internal/from-redirected-script");
            assertThat(served).as("no service worker was registered").doesNotContain("/sw.js");
            assertThat(crawl.getString("state")).isEqualTo("completed");
            assertThat(crawl.getInt("pages.fetched")).as("the attack page itself is read").isEqualTo(1);

            Map<String, String> report = new java.util.HashMap<>();
            crawl.getList("failures", Map.class).forEach(f -> report.put((String) f.get("url"), (String) f.get("reason")));
            assertThat(report.get(internalBase + "/from-fetch")).contains("request refused", "loopback");
            assertThat(report.get(internalBase + "/from-stylesheet")).contains("loopback");
            assertThat(report.get(internalBase + "/from-redirected-script")).contains("loopback");
            assertThat(report.get("127.0.0.2:" + internal.getAddress().getPort())).as("the WebSocket's tunnel").contains("loopback");
            assertThat(report.get(attacker.url("/attack/redirect"))).as("a page redirected to the internal address")
                    .contains("loopback").doesNotContain("request refused");
        } finally {
            internal.stop(0);
        }
    }

    @Test
    void credentialsAreAdminManagedNeverShownAndServeOnlyTheirCollections() {
        given().contentType(ContentType.JSON).body(Map.of("name", "intranet", "collections", List.of("crawl-intranet"),
                "sites", List.of(site.url("/").toUpperCase(java.util.Locale.ROOT)), "values", Map.of("password", "canary-value-7")))
                .post("/api/credentials").then().statusCode(201)
                .body("name", org.hamcrest.Matchers.equalTo("intranet"))
                .body("sites", org.hamcrest.Matchers.contains(site.url("")))
                .body("state", org.hamcrest.Matchers.equalTo("usable"))
                .body("fields", org.hamcrest.Matchers.contains("password"));
        String listed = given().get("/api/credentials").then().statusCode(200).extract().asString();
        assertThat(listed).contains("intranet").doesNotContain("canary-value-7");
        assertThat(given().get("/api/credentials/intranet").then().statusCode(200).extract().asString()).doesNotContain("canary-value-7");

        // bad credentials
        List<String> sites = List.of("https://intranet.example");
        postCredential(Map.of("collections", List.of("x"), "sites", sites, "values", Map.of("p", "v"))).statusCode(400)
                .body("message", containsString("'name'"));
        postCredential(Map.of("name", "../etc", "collections", List.of("x"), "sites", sites, "values", Map.of("p", "v"))).statusCode(400);
        postCredential(Map.of("name", "n1", "sites", sites, "values", Map.of("p", "v"))).statusCode(400)
                .body("message", containsString("'collections'"));
        postCredential(Map.of("name", "n1", "collections", List.of("Bad Name!"), "sites", sites, "values", Map.of("p", "v"))).statusCode(400);
        postCredential(Map.of("name", "n1", "collections", List.of("x"), "sites", sites, "values", Map.of())).statusCode(400)
                .body("message", containsString("'values'"));
        postCredential(Map.of("name", "n1", "collections", List.of("x"), "sites", sites, "values", Map.of("p", "v".repeat(5000))))
                .statusCode(400);
        postCredential(Map.of("name", "intranet", "collections", List.of("x"), "sites", sites, "values", Map.of("p", "v"))).statusCode(409)
                .body("message", containsString("exists"));
        // a credential must name the origins it may be typed into, exactly
        postCredential(Map.of("name", "n1", "collections", List.of("x"), "values", Map.of("p", "v"))).statusCode(400)
                .body("error", org.hamcrest.Matchers.equalTo("bad_request")).body("message", containsString("'sites'"));
        postCredential(Map.of("name", "n1", "collections", List.of("x"), "sites", List.of(), "values", Map.of("p", "v"))).statusCode(400)
                .body("message", containsString("'sites'"));
        for (String bad : List.of("https://intranet.example/login", "https://*.example", "https://intranet.example@evil.example",
                "intranet.example", "ftp://intranet.example", "https://intranet.example.", "https://intranet.example:99999")) {
            postCredential(Map.of("name", "n1", "collections", List.of("x"), "sites", List.of(bad), "values", Map.of("p", "v")))
                    .statusCode(400).body("message", containsString("'sites'"));
        }
        postCredential(Map.of("name", "n1", "collections", List.of("x"), "sites", java.util.stream.IntStream.range(0, 21)
                .mapToObj(i -> "https://site" + i + ".example").toList(), "values", Map.of("p", "v"))).statusCode(400);
        assertThat(given().get("/api/credentials").then().statusCode(200).extract().asString()).as("nothing refused was stored")
                .doesNotContain("\"n1\"");
        given().delete("/api/credentials/nope").then().statusCode(404);
        given().get("/api/credentials/nope").then().statusCode(404);

        // crawls that name credentials they may not use
        Map<String, Object> other = Map.of("url", site.url("/login"), "submit", "#go", "successSelector", "#welcome",
                "fields", CrawlTestSite.login(Map.of("credential", "intranet", "field", "password")));
        post(Map.of("seedUrls", List.of(site.url("/a")), "collection", "crawl-elsewhere", "login", other)).statusCode(403)
                .body("message", containsString("does not serve collection 'crawl-elsewhere'"));
        post(Map.of("seedUrls", List.of(site.url("/a")), "collection", "crawl-intranet", "login", Map.of("url", site.url("/login"),
                "submit", "#go", "successSelector", "#welcome", "fields", CrawlTestSite.login(Map.of("credential", "nope", "field", "p")))))
                .statusCode(400).body("message", containsString("does not exist"));
        post(Map.of("seedUrls", List.of(site.url("/a")), "collection", "crawl-intranet", "login", Map.of("url", site.url("/login"),
                "submit", "#go", "successSelector", "#welcome", "fields", CrawlTestSite.login(Map.of("credential", "intranet", "field", "token")))))
                .statusCode(400).body("message", containsString("has no field 'token'"));
        post(Map.of("seedUrls", List.of(site.url("/a")), "collection", "crawl-intranet", "login", Map.of("url", site.url("/login"),
                "submit", "#go", "successSelector", "#welcome", "fields", CrawlTestSite.login(Map.of("credential", "intranet")))))
                .statusCode(400).body("message", containsString("must be a string or"));

        given().delete("/api/credentials/intranet").then().statusCode(204);
        assertThat(given().get("/api/credentials").then().statusCode(200).extract().asString()).doesNotContain("intranet");
    }

    /**
     * A credential stored before credentials named their sites is listed as unusable, refused for a crawl, and usable once
     * an admin adds its sites.
     */
    @Test
    void aCredentialWithoutSitesIsUnusableUntilAnAdminAddsThem() {
        neo4j.executableQuery("""
                        CREATE (c:Credential {name: 'legacy', collections: ['crawl-legacy'], fields: ['password'], sealed: 'v1:unopened',
                                              createdAt: '2025-01-01T00:00:00Z'})""").execute();
        given().get("/api/credentials/legacy").then().statusCode(200).body("state", org.hamcrest.Matchers.equalTo("unusable"))
                .body("sites", org.hamcrest.Matchers.empty()).body("reason", containsString("names no sites"));
        Map<String, Object> login = Map.of("url", site.url("/login"), "submit", "#go", "successSelector", "#welcome",
                "fields", CrawlTestSite.login(Map.of("credential", "legacy", "field", "password")));
        post(Map.of("seedUrls", List.of(site.url("/a")), "collection", "crawl-legacy", "login", login)).statusCode(400)
                .body("message", containsString("names no sites"));

        patch("legacy", Map.of()).statusCode(400).body("message", containsString("'sites'"));
        patch("legacy", Map.of("sites", List.of())).statusCode(400).body("message", containsString("'sites'"));
        patch("legacy", Map.of("sites", List.of(site.url("/login")))).statusCode(400).body("message", containsString("path"));
        patch("nope", Map.of("sites", List.of(site.url("")))).statusCode(404);
        given().get("/api/credentials/legacy").then().body("state", org.hamcrest.Matchers.equalTo("unusable"));

        patch("legacy", Map.of("sites", List.of(site.url("")))).statusCode(200).body("state", org.hamcrest.Matchers.equalTo("usable"))
                .body("sites", org.hamcrest.Matchers.contains(site.url(""))).body("collections", org.hamcrest.Matchers.contains("crawl-legacy"))
                .body("$", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("reason")));
        given().get("/api/credentials").then().statusCode(200).body("credentials.find { it.name == 'legacy' }.state",
                org.hamcrest.Matchers.equalTo("usable"));
        given().delete("/api/credentials/legacy").then().statusCode(204);
    }

    private static io.restassured.response.ValidatableResponse patch(String name, Map<String, Object> body) {
        return given().contentType(ContentType.JSON).body(body).patch("/api/credentials/" + name).then();
    }

    /**
     * Issue 68's attack: a writer names a collection's credential in a crawl whose login page is another site, directly or
     * through a page of the credential's own site that sends the browser there (a 302, a script's navigation). The other site
     * records every value typed into its login page and every form posted to it: nothing of the credential arrives. The
     * same credential still logs in on its own site, whose page records the value (so the recorder would have seen it).
     */
    @Test
    void aCredentialIsNeverTypedIntoAnotherOriginDirectlyOrAfterARedirectAndStillLogsInOnItsOwnSite() throws Exception {
        String collection = "crawl-bound";
        given().contentType(ContentType.JSON).body(Map.of("name", "bound", "collections", List.of(collection), "sites", List.of(site.url("")),
                "values", Map.of("password", "s3cret"))).post("/api/credentials").then().statusCode(201);
        try (CrawlTestSite attacker = new CrawlTestSite(SLOW_MILLIS)) {
            site.otherOrigin = attacker.url("");
            String sitePort = site.url("").substring(site.url("").lastIndexOf(':') + 1);

            // directly, and the neighbours of the site: refused when asked, with the reason
            for (String loginUrl : List.of(attacker.url("/login"), "https://127.0.0.1:" + sitePort + "/login",
                    "http://localhost:" + sitePort + "/login", site.url("") + "@" + attacker.url("/login").substring("http://".length()))) {
                post(Map.of("seedUrls", List.of(site.url("/a")), "collection", collection, "login", bound(loginUrl))).statusCode(400)
                        .body("error", org.hamcrest.Matchers.equalTo("bad_request"))
                        .body("message", containsString("is not a site of credential 'bound'"));
            }
            assertThat(attacker.requests).as("a login refused when asked reaches no site").isEmpty();

            // through the credential's own site: the browser lands on the other site and types nothing there
            for (String path : List.of("/login-moved", "/login-scripted")) {
                String crawlId = post(Map.of("seedUrls", List.of(site.url("/private/area")), "collection", collection, "maxDepth", 0,
                        "login", bound(site.url(path)))).statusCode(202).extract().path("crawlId");
                JsonPath crawl = awaitCrawl(crawlId, Duration.ofSeconds(60));
                assertThat(crawl.getString("state")).as(path).isEqualTo("failed");
                assertThat(crawl.getString("failures[0].reason")).as(path).startsWith("login refused before typing: " + attacker.url(""))
                        .contains("is not a site of credential 'bound'").doesNotContain("s3cret");
                assertThat(crawl.getInt("pages.fetched")).as(path + ": a refused login reads no page").isZero();
            }
            assertThat(attacker.requests.stream().map(CrawlTestSite.Request::path)).as("the browser did reach the other site's login page")
                    .contains("/login");
            assertThat(attacker.keystrokes).as("values typed on the other site").isEmpty();
            assertThat(attacker.postedLogins).as("forms posted to the other site").isEmpty();
            assertThat(attacker.requests).noneMatch(request -> request.path().contains("s3cret"));

            // the control: the same credential on its own site logs in (and the site's recorder sees the value)
            String crawlId = post(Map.of("seedUrls", List.of(site.url("/private/area")), "collection", collection, "maxDepth", 0,
                    "login", bound(site.url("/login")))).statusCode(202).extract().path("crawlId");
            JsonPath crawl = awaitCrawl(crawlId, Duration.ofSeconds(60));
            assertThat(crawl.getString("state")).isEqualTo("completed");
            assertThat(crawl.getList("failures.reason", String.class)).noneMatch(reason -> reason.startsWith("login"));
            assertThat(crawl.getInt("pages.fetched")).as("the members area").isEqualTo(1);
            assertThat(site.keystrokes).contains("s3cret");
            assertThat(site.postedLogins).contains("user=alice&pass=s3cret");
            assertThat(IngestTestSupport.readUntil(Topics.DOCUMENTS_ARRIVED, crawlId, 1, Duration.ofSeconds(30)))
                    .anyMatch(event -> event.contains("platypus"));
        } finally {
            site.otherOrigin = "http://127.0.0.2:9";
            given().delete("/api/credentials/bound");
        }
    }

    private static Map<String, Object> bound(String loginUrl) {
        return Map.of("url", loginUrl, "submit", "#go", "successSelector", "#welcome",
                "fields", CrawlTestSite.login(Map.of("credential", "bound", "field", "password")));
    }

    private static io.restassured.response.ValidatableResponse postCredential(Map<String, Object> body) {
        return given().contentType(ContentType.JSON).body(body).post("/api/credentials").then();
    }

    @Test
    void aWrongPasswordNeverReachesTheMembersArea() {
        String collection = "crawl-wrong-login";
        String crawlId = given().contentType(ContentType.JSON).body(Map.of(
                "seedUrls", List.of(site.url("/private/area"), site.url("/a")), "collection", collection, "maxDepth", 0,
                "login", Map.of("url", site.url("/login"), "fields", CrawlTestSite.login("not-the-password"),
                        "submit", "#go", "successSelector", "#welcome")))
                .post("/api/crawls").then().statusCode(202).extract().path("crawlId");
        JsonPath crawl = awaitCrawl(crawlId, Duration.ofSeconds(60));
        assertThat(crawl.getString("failures[0].reason")).startsWith("login failed");
        assertThat(crawl.getString("request.login.fields.'#pass'")).isEqualTo("***");
        List<String> published = IngestTestSupport.readAll(Topics.DOCUMENTS_ARRIVED, crawlId);
        assertThat(published).as("alpha is published, the members area never").isNotEmpty().noneMatch(event -> event.contains("platypus"));
    }

    @Test
    void recrawlsPublishChangedPagesAndDeleteVanishedOnes() {
        String collection = "crawl-recrawl";
        String crawlId = given().contentType(ContentType.JSON).body(Map.of(
                "seedUrls", List.of(site.url("/changing"), site.url("/vanishing")), "collection", collection, "maxDepth", 0,
                "schedule", "2s"))
                .post("/api/crawls").then().log().ifValidationFails().statusCode(202).extract().path("crawlId");
        IngestTestSupport.readUntil(Topics.DOCUMENTS_ARRIVED, "pangolins", 1, Duration.ofSeconds(60));
        site.changingText = "Version two of the changing page mentions manatees.";
        site.vanished = true;

        IngestTestSupport.readUntil(Topics.DOCUMENTS_ARRIVED, "manatees", 1, Duration.ofSeconds(60));
        String vanishingId = Ids.documentIdFromUri(site.url("/vanishing"));
        IngestTestSupport.readUntil(Topics.DOCUMENTS_DELETED, vanishingId, 1, Duration.ofSeconds(60));
        // one more run: the page did not change again, so it makes no new version
        long deadline = System.currentTimeMillis() + 30_000;
        int seenRuns = 0;
        while (seenRuns < 3 && System.currentTimeMillis() < deadline) {
            IngestTestSupport.sleep(500);
            JsonPath status = given().get("/api/crawls/" + crawlId).then().statusCode(200).extract().jsonPath();
            seenRuns = "running".equals(status.getString("state")) ? seenRuns : status.getInt("runs");
        }
        assertThat(seenRuns).as("recrawl runs").isGreaterThanOrEqualTo(3);
        assertThat(IngestTestSupport.readAll(Topics.DOCUMENTS_ARRIVED, "manatees")).hasSize(1);

        given().delete("/api/crawls/" + crawlId).then().statusCode(200).body("state", containsString("stopped"));
        int runs = given().get("/api/crawls/" + crawlId).then().extract().jsonPath().getInt("runs");
        IngestTestSupport.sleep(3000);
        assertThat(given().get("/api/crawls/" + crawlId).then().extract().jsonPath().getInt("runs")).as("no run after stop").isEqualTo(runs);
    }

    @Test
    void badCrawlRequestsAreClearErrors() {
        post(Map.of("collection", "x")).statusCode(400).body("message", containsString("'seedUrls'"));
        post(Map.of("seedUrls", List.of("ftp://example.org"))).statusCode(400).body("message", containsString("not an http(s) URL"));
        post(Map.of("seedUrls", List.of(site.url("/")), "maxDepth", 11)).statusCode(400).body("message", containsString("'maxDepth'"));
        post(Map.of("seedUrls", List.of(site.url("/")), "include", List.of("(unclosed"))).statusCode(400)
                .body("message", containsString("invalid regular expression"));
        int crawlsBefore = given().get("/api/crawls").then().statusCode(200).extract().jsonPath().getList("$").size();
        post(Map.of("seedUrls", List.of(site.url("/")), "schedule", "every tuesday-ish")).statusCode(400)
                .body("message", containsString("invalid 'schedule'"));
        assertThat(given().get("/api/crawls").then().statusCode(200).extract().jsonPath().getList("$"))
                .as("a refused crawl leaves no ghost behind").hasSize(crawlsBefore);
        // server-side request forgery: the tests allow 127.0.0.1/32 for their site, nothing else
        post(Map.of("seedUrls", List.of("http://127.0.0.2:8081/q/health"))).statusCode(400)
                .body("message", containsString("loopback")).body("message", containsString("openrag.fetch.allow-private"));
        post(Map.of("seedUrls", List.of("http://169.254.169.254/latest/meta-data/"))).statusCode(400)
                .body("message", containsString("link-local"));
        post(Map.of("seedUrls", List.of(site.url("/")), "login", Map.of("url", site.url("/login")))).statusCode(400)
                .body("message", containsString("'login.fields'"));
        given().get("/api/crawls/nope").then().statusCode(404).body("message", containsString("no crawl 'nope'"));
    }

    private static io.restassured.response.ValidatableResponse post(Map<String, Object> body) {
        return given().contentType(ContentType.JSON).body(body).post("/api/crawls").then();
    }
}
