package dev.openrag.query.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.assertions.PlaywrightAssertions;

import dev.openrag.localstack.Ports;
import dev.openrag.localstack.ProcessSupervisor;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.PackagedApp;
import dev.openrag.localstack.test.TestStack;

/**
 * The web UI of packaged apps with auth on, in Chromium: it asks for a key, says so when a wrong one
 * is typed, and with a valid one loads the collections and keeps the key for the tab (a reload does
 * not ask again). A key granted one collection sees only that one in the picker and the overview, and
 * only its jobs; the admin key beside it sees both.
 */
class WebUiAuthIT {

    private static final String ADMIN = "ui-it-admin-key";
    private static final Path CHROMIUM = Path.of(System.getProperty("openrag.crawler.chromium", System.getProperty("openrag.chromium", "/usr/bin/chromium")));

    private static ProcessSupervisor supervisor;
    private static Playwright playwright;
    private static Browser browser;
    private static String base;
    private static String ingestBase;
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void start() throws Exception {
        assertThat(CHROMIUM).as("Debian's chromium package (./mvnw installs it when run as root)").isExecutable();
        StackConfig stack = TestStack.ensureAll();
        supervisor = new ProcessSupervisor(Files.createTempDirectory("ui-auth"), false);
        int port = Ports.free();
        int ingest = Ports.free();
        PackagedApp.startTogether(
                () -> supervisor.start(PackagedApp.spec("ingest-ui-auth", Path.of("../ingest-pipeline/target/quarkus-app/quarkus-run.jar"),
                        ingest, stack, Map.of("OPENRAG_AUTH_ADMIN_KEY", ADMIN, "OPENRAG_OPENSEARCH_REFRESH_ON_WRITE", "true",
                                "OPENRAG_UI_ORIGINS", "http://127.0.0.1:" + port))),
                () -> supervisor.start(PackagedApp.spec("query-ui-auth", Path.of("target/quarkus-app/quarkus-run.jar"), port, stack,
                        // the ingest app of this test, not the page's host on 8081, where a running ./openrag up would get the key
                        Map.of("OPENRAG_AUTH_ADMIN_KEY", ADMIN, "OPENRAG_UI_INGEST_URL", "http://127.0.0.1:" + ingest))));
        base = "http://127.0.0.1:" + port + "/";
        ingestBase = "http://127.0.0.1:" + ingest + "/";
        playwright = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        browser = playwright.chromium().launch(new BrowserType.LaunchOptions().setExecutablePath(CHROMIUM).setHeadless(true)
                .setArgs(List.of("--no-sandbox", "--disable-gpu")));
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
        if (playwright != null) {
            playwright.close();
        }
        if (supervisor != null) {
            List.of("query-ui-auth", "ingest-ui-auth").forEach(app -> supervisor.stop(app, Duration.ofSeconds(20)));
        }
    }

    @Test
    void theUiAsksForAKeyRefusesAWrongOneAndKeepsAGoodOneForTheTab() {
        Page page = browser.newPage();
        page.navigate(base);
        PlaywrightAssertions.assertThat(page.locator("#key-form")).isVisible();

        page.fill("#api-key", "ork_wrong");
        page.click("#key-form button");
        PlaywrightAssertions.assertThat(page.locator("#message")).containsText("unknown or revoked API key");
        PlaywrightAssertions.assertThat(page.locator("#key-form")).isVisible();

        page.fill("#api-key", ADMIN);
        page.click("#key-form button");
        PlaywrightAssertions.assertThat(page.locator("#message")).containsText("key accepted: admin access");
        PlaywrightAssertions.assertThat(page.locator("#key-form")).isHidden();

        page.reload();
        PlaywrightAssertions.assertThat(page.locator("body[data-ready=true]")).isAttached();
        PlaywrightAssertions.assertThat(page.locator("#key-form")).isHidden();
        page.close();
    }

    @Test
    void aKeyGrantedOneCollectionSeesOnlyItInThePickerAndTheOverviewAndOnlyItsJobs() throws Exception {
        String granted = ingest("ui-auth-granted", "Tide tables", "The harbour tide table is posted at the pier every Monday.");
        String hidden = ingest("ui-auth-hidden", "Payroll", "Salaries are paid on the last working day of the month.");
        JsonNode created = JSON.readTree(call("POST", base + "api/keys", ADMIN,
                "{\"name\": \"ui-reader\", \"role\": \"read\", \"collections\": [\"ui-auth-granted\"], \"scopes\": []}"));
        String reader = created.path("secret").asText();
        assertThat(reader).startsWith("ork_");

        Page page = signedIn(reader, "read access");
        // the page loaded the overview before the key was typed (each part: unavailable), then again with it
        PlaywrightAssertions.assertThat(page.locator("#overview-collections tr[data-collection]")).hasCount(1);
        PlaywrightAssertions.assertThat(page.locator("#overview[data-loaded=true]")).isAttached();
        assertThat(page.locator("#overview-collections tr[data-collection]").evaluateAll("rows => rows.map(r => r.dataset.collection)"))
                .isEqualTo(List.of("ui-auth-granted"));
        assertThat(page.locator("#collections option").evaluateAll("options => options.map(o => o.value)"))
                .as("the picker").isEqualTo(List.of("ui-auth-granted"));
        PlaywrightAssertions.assertThat(page.locator("#collection")).hasValue("ui-auth-granted");
        PlaywrightAssertions.assertThat(page.locator("#overview-jobs tr[data-job='" + granted + "']")).containsText("completed");
        PlaywrightAssertions.assertThat(page.locator("#overview-jobs tr[data-job='" + hidden + "']")).hasCount(0);
        assertThat(page.locator("#overview").innerText()).doesNotContain("ui-auth-hidden");
        page.close();

        // the control: the admin key sees both collections and both jobs
        Page admin = signedIn(ADMIN, "admin access");
        PlaywrightAssertions.assertThat(admin.locator("#overview-collections tr[data-collection=ui-auth-hidden]")).hasCount(1);
        assertThat(admin.locator("#overview-collections tr[data-collection]").evaluateAll("rows => rows.map(r => r.dataset.collection)")
                .toString()).contains("ui-auth-granted", "ui-auth-hidden");
        PlaywrightAssertions.assertThat(admin.locator("#overview-jobs tr[data-job='" + hidden + "']")).containsText("ui-auth-hidden");
        admin.close();
    }

    private static Page signedIn(String key, String access) {
        Page page = browser.newPage();
        page.navigate(base);
        PlaywrightAssertions.assertThat(page.locator("#key-form")).isVisible();
        page.fill("#api-key", key);
        page.click("#key-form button");
        PlaywrightAssertions.assertThat(page.locator("#message")).containsText("key accepted: " + access);
        return page;
    }

    /** Ingests one text with the admin key and waits for its job: its id. */
    private static String ingest(String collection, String title, String text) throws Exception {
        String body = JSON.writeValueAsString(Map.of("title", title, "text", text, "collection", collection));
        String jobId = JSON.readTree(call("POST", ingestBase + "api/documents", ADMIN, body)).path("jobId").asText();
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (!JSON.readTree(call("GET", ingestBase + "api/jobs/" + jobId, ADMIN, null)).path("state").asText().equals("completed")) {
            assertThat(System.nanoTime()).as("job " + jobId + " completes").isLessThan(deadline);
            Thread.sleep(300);
        }
        return jobId;
    }

    private static String call(String method, String url, String key, String json) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json)).build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(method + " " + url + ": " + response.body()).isBetween(200, 299);
        return response.body();
    }
}
