package dev.openrag.query.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.assertions.PlaywrightAssertions;
import com.microsoft.playwright.options.FilePayload;

import dev.openrag.localstack.Ports;
import dev.openrag.localstack.ProcessSupervisor;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.PackagedApp;
import dev.openrag.localstack.test.TestStack;

/**
 * The web UI in a real browser (Debian's Chromium through Playwright) against the packaged
 * query-api and ingest-pipeline on real engines: upload a document and watch its job, find it and
 * open a source, ask (extractive, no LLM), pin and forget a memory, search memories by a time named
 * after an event, open a citation at its exact sentence, render an entity's graph, the
 * narrow layout, and a collection's enrichment settings. Screenshots go to target/ui-screenshots; any browser console error fails.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebUiEndToEndIT {

    private static final String COLLECTION = "ui-e2e";
    private static final Path SCREENSHOTS = Path.of("target/ui-screenshots");
    private static final Path CHROMIUM = Path.of(System.getProperty("openrag.crawler.chromium", System.getProperty("openrag.chromium", "/usr/bin/chromium")));
    private static final LocatorAssertions.IsVisibleOptions LONG = new LocatorAssertions.IsVisibleOptions().setTimeout(120_000);
    private static final LocatorAssertions.ContainsTextOptions LAG_WAIT = new LocatorAssertions.ContainsTextOptions().setTimeout(20_000);

    private static ProcessSupervisor supervisor;
    private static Playwright playwright;
    private static Browser browser;
    private static Page page;
    private static String base;
    private static String ingestBase;
    private static Path sourceRoot;
    private static final List<String> consoleErrors = new ArrayList<>();
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    @BeforeAll
    static void start() throws Exception {
        Path ingestJar = Path.of("../ingest-pipeline/target/quarkus-app/quarkus-run.jar");
        Path queryJar = Path.of("target/quarkus-app/quarkus-run.jar");
        assertThat(ingestJar).as("build ingest-pipeline first (./mvnw verify builds every module in order)").exists();
        assertThat(CHROMIUM).as("Debian's chromium package (./mvnw installs it when run as root; else apt-get install chromium)")
                .isExecutable();
        StackConfig stack = TestStack.ensureAll();
        supervisor = new ProcessSupervisor(Files.createTempDirectory("ui-e2e"), false);
        int ingest = Ports.free();
        int query = Ports.free();
        sourceRoot = Files.createTempDirectory("ui-sources").toRealPath();
        // the ingest app grants CORS to the UI's origin only: here query-api's free port
        PackagedApp.startTogether(
                () -> supervisor.start(PackagedApp.spec("ingest-ui", ingestJar, ingest, stack, Map.of("OPENRAG_OPENSEARCH_REFRESH_ON_WRITE",
                        "true", "OPENRAG_UI_ORIGINS", "http://127.0.0.1:" + query, "OPENRAG_SOURCES_ALLOWED_ROOTS", sourceRoot.toString()))),
                () -> supervisor.start(PackagedApp.spec("query-ui", queryJar, query, stack,
                        Map.of("OPENRAG_UI_INGEST_URL", "http://127.0.0.1:" + ingest))));
        ingestBase = "http://127.0.0.1:" + ingest + "/";
        base = "http://127.0.0.1:" + query + "/";
        Files.createDirectories(SCREENSHOTS);
        playwright = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        browser = playwright.chromium().launch(new BrowserType.LaunchOptions().setExecutablePath(CHROMIUM).setHeadless(true)
                .setArgs(List.of("--no-sandbox", "--disable-gpu")));
        page = browser.newPage(new Browser.NewPageOptions().setViewportSize(1280, 800));
        page.onConsoleMessage(message -> {
            if (message.type().equals("error")) {
                consoleErrors.add(message.text());
            }
        });
        page.onPageError(error -> consoleErrors.add("uncaught: " + error));
        page.navigate(base);
        PlaywrightAssertions.assertThat(page.locator("body[data-ready=true]")).isAttached();
        // issue 71: the UI opens on the overview, not on an empty chat
        PlaywrightAssertions.assertThat(page.locator("#overview")).isVisible();
        PlaywrightAssertions.assertThat(page.locator("nav a[data-area=overview]")).hasAttribute("aria-current", "page");
        page.fill("#collection", COLLECTION);
    }

    @AfterEach
    void noConsoleErrors() {
        List<String> errors = List.copyOf(consoleErrors);
        consoleErrors.clear();
        assertThat(errors).as("browser console errors").isEmpty();
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
            List.of("ingest-ui", "query-ui").forEach(app -> supervisor.stop(app, Duration.ofSeconds(20)));
        }
    }

    private static void area(String name) {
        page.click("nav a[data-area=" + name + "]");
        PlaywrightAssertions.assertThat(page.locator("#" + name)).isVisible();
        PlaywrightAssertions.assertThat(page.locator("nav a[data-area=" + name + "]")).hasAttribute("aria-current", "page");
    }

    private static void screenshot(String name) {
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve(name + ".png")).setFullPage(true));
    }

    @Test
    @Order(1)
    void anUploadedDocumentsJobRunsToCompletionInTheIngestArea() {
        area("ingest");
        String markdown = """
                # Lighthouse keeping
                The Blue Harbor Lighthouse keeper trims the lamp wick every evening at dusk.

                ## Fog signals
                In fog the Blue Harbor Lighthouse sounds its horn twice every thirty seconds.
                """;
        page.setInputFiles("#files", new FilePayload("lighthouse.md", "text/markdown", markdown.getBytes(StandardCharsets.UTF_8)));

        Locator job = page.locator(".job[data-state=completed]");
        PlaywrightAssertions.assertThat(job).isVisible(LONG);
        assertThat(job.innerText()).contains("lighthouse.md").contains("1 of 1 documents done, 0 failed").contains("sink-neo4j")
                .doesNotContain("null").doesNotContain("undefined");
        // issue 63: the consumer lag of each stage, read from the ingest pipeline, above the jobs
        PlaywrightAssertions.assertThat(page.locator("#lag")).containsText("Consumer lag per stage: parse ", LAG_WAIT);
        assertThat(page.locator("#lag").innerText()).contains("sink-opensearch").doesNotContain("unavailable");
        // the collection picker lists the new collection with its document count once the field gets the focus
        page.focus("#collection");
        PlaywrightAssertions.assertThat(page.locator("#collections option[value=" + COLLECTION + "]")).hasText("1 document");
        screenshot("ingest");
    }

    @Test
    @Order(2)
    void searchShowsRanksPerRetrieverAndASourceOpensInDocuments() {
        area("chat");
        page.fill("#question", "how often does the horn sound in fog");
        page.click("#search-button");
        Locator firstRow = page.locator("#search-results tbody tr").first();
        PlaywrightAssertions.assertThat(firstRow).containsText("Lighthouse keeping");
        assertThat(firstRow.innerText()).contains("vector").contains("bm25");
        screenshot("search");

        firstRow.click();
        PlaywrightAssertions.assertThat(page.locator("#documents")).isVisible();
        PlaywrightAssertions.assertThat(page.locator("#document-detail .chunk.highlight")).containsText("horn twice");
        // issue 61: the hit's exact span, highlighted in the document's text
        PlaywrightAssertions.assertThat(page.locator("#document-detail mark#cited")).containsText("horn twice every thirty seconds");
        // issue 63: the document's timeline from the ingest pipeline, each stage with its trace id
        Locator timeline = page.locator("#document-detail details.timeline");
        assertThat(timeline.locator("summary").innerText()).matches("Timeline · trace [0-9a-f]{32}");
        timeline.locator("summary").click();
        assertThat(timeline.locator("tbody").innerText()).contains("parse", "chunk", "embed", "sink-opensearch", "completed");
        PlaywrightAssertions.assertThat(page.locator("#documents-table tbody tr")).containsText("Lighthouse keeping");
        screenshot("documents");
    }

    @Test
    @Order(3)
    void askAnswersExtractivelyWithNumberedSourcesThatOpen() {
        area("chat");
        page.fill("#question", "When does the keeper trim the lamp wick?");
        page.click("#ask-form button[type=submit]");
        PlaywrightAssertions.assertThat(page.locator("#answer[data-mode=extractive]")).isVisible(LONG);
        assertThat(page.locator("#answer").innerText()).contains("[1]").contains("extractive answer");
        PlaywrightAssertions.assertThat(page.locator("#answer a.cite").first()).hasText("[1]");
        Locator source = page.locator("#sources li a").first();
        PlaywrightAssertions.assertThat(source).containsText("Lighthouse keeping");
        screenshot("chat");

        source.click();
        PlaywrightAssertions.assertThat(page.locator("#document-detail .chunk.highlight")).isVisible();
        // issue 61: the citation opens the document at the exact sentence the answer quotes, highlighted
        PlaywrightAssertions.assertThat(page.locator("#document-detail mark#cited"))
                .hasText("The Blue Harbor Lighthouse keeper trims the lamp wick every evening at dusk.");
        assertThat(page.locator("#document-detail .cited h4").innerText()).contains("Lighthouse keeping");
        screenshot("citation");
    }

    @Test
    @Order(4)
    void aMemoryIsAddedPinnedForgottenAndRestored() throws Exception {
        area("memory");
        page.fill("#memory-scope", COLLECTION);
        page.fill("#memory-text", "The night shift prefers the east stairway of the lighthouse.");
        page.click("#memory-add-form button[type=submit]");
        Locator card = page.locator("#memories li[data-memory]").first();
        PlaywrightAssertions.assertThat(card).containsText("east stairway");

        card.locator("button", new Locator.LocatorOptions().setHasText("Pin")).click();
        PlaywrightAssertions.assertThat(page.locator("#memories li[data-memory] .badge.pinned")).isVisible();
        String id = page.locator("#memories li[data-memory]").first().getAttribute("data-memory");
        assertThat(get("api/memories?scope=" + COLLECTION + "&pinned=true")).contains(id);

        page.locator("#memories li[data-memory] button", new Page.LocatorOptions().setHasText("Forget")).click();
        PlaywrightAssertions.assertThat(page.locator("#memories li[data-memory] .badge.forgotten")).isVisible();
        assertThat(get("api/memories?scope=" + COLLECTION)).as("forgotten memories leave the list").doesNotContain(id);
        screenshot("memory");

        page.locator("#memories li[data-memory] button", new Page.LocatorOptions().setHasText("Restore")).click();
        PlaywrightAssertions.assertThat(page.locator("#memories li[data-memory] .badge.forgotten")).hasCount(0);
        assertThat(get("api/memories?scope=" + COLLECTION)).contains(id);

        // a search that names a time says how it read it: here after the event the memory tells of
        page.fill("#memory-query", "who took the stairs after the lighthouse visit?");
        page.click("#memory-search-form button[type=submit]");
        PlaywrightAssertions.assertThat(page.locator("#memory-period")).containsText("\"lighthouse visit\", dated by memory " + id);
        PlaywrightAssertions.assertThat(page.locator("#memories li[data-memory]").first()).containsText("east stairway");
        page.fill("#memory-query", "");
        page.click("#memory-search-form button[type=submit]");
        PlaywrightAssertions.assertThat(page.locator("#memory-period")).hasCount(0);
    }

    @Test
    @Order(5)
    void theGraphOfAnEntityRendersAndExpandsOnClick() {
        area("graph");
        page.fill("#graph-entity", "Blue Harbor Lighthouse");
        page.click("#graph-form button[type=submit]");
        PlaywrightAssertions.assertThat(page.locator("#graph-detail")).containsText("nodes");
        PlaywrightAssertions.assertThat(page.locator("#cy canvas").first()).isAttached();
        String summary = page.locator("#graph-detail").innerText();
        int nodes = Integer.parseInt(summary.substring(0, summary.indexOf(' ')));
        assertThat(nodes).as("the entity and the chunks that mention it").isGreaterThan(1);
        screenshot("graph");
    }

    @Test
    @Order(6)
    void apiErrorsShowAsReadableMessages() {
        area("documents");
        page.fill("#collection", "never-ingested");
        page.click("#documents-form button[type=submit]");
        PlaywrightAssertions.assertThat(page.locator("#documents-table tbody")).containsText("unknown collection");
        area("chat");
        page.fill("#question", "anything");
        page.click("#search-button");
        PlaywrightAssertions.assertThat(page.locator("#message")).containsText("unknown collection 'never-ingested'");
        // the browser itself logs every refused request; those two are the ones this test made
        assertThat(consoleErrors).allMatch(error -> error.contains("status of 404") || error.contains("status of 400"));
        consoleErrors.clear();
        page.fill("#collection", COLLECTION);
    }

    @Test
    @Order(7)
    void theLayoutFitsA390PixelScreen() {
        page.setViewportSize(390, 844);
        for (String name : List.of("overview", "chat", "ingest", "memory")) {
            area(name);
            Object overflow = page.evaluate("document.documentElement.scrollWidth");
            assertThat(((Number) overflow).intValue()).as(name + " scroll width at 390px").isLessThanOrEqualTo(390);
        }
        screenshot("mobile-memory");
        page.keyboard().press("Tab");
        assertThat(page.evaluate("document.activeElement.tagName")).as("keyboard focus reaches the page").isNotNull();
        page.setViewportSize(1280, 800);
    }

    @Test
    @Order(9)
    void aCollectionsEnrichmentSettingsAreSavedAndShownAgainAndBadOnesRefused() {
        page.fill("#collection", "ui-settings");
        area("ingest");
        PlaywrightAssertions.assertThat(page.locator("#settings-form[data-collection=ui-settings]")).isAttached();
        PlaywrightAssertions.assertThat(page.locator("#settings-contextualizer")).hasValue("structural");
        page.selectOption("#settings-contextualizer", "llm");
        page.fill("#settings-model-contextualizer", "ollama:qwen2.5");
        page.selectOption("#settings-summaries", "off");
        page.fill("#settings-max-tokens", "50000");
        page.click("#settings-form button[type=submit]");
        PlaywrightAssertions.assertThat(page.locator("#message")).containsText("settings saved for ui-settings");

        page.fill("#collection", COLLECTION);
        area("chat");
        page.fill("#collection", "ui-settings");
        area("ingest");
        PlaywrightAssertions.assertThat(page.locator("#settings-form[data-collection=ui-settings]")).isAttached();
        PlaywrightAssertions.assertThat(page.locator("#settings-contextualizer")).hasValue("llm");
        PlaywrightAssertions.assertThat(page.locator("#settings-model-contextualizer")).hasValue("ollama:qwen2.5");
        PlaywrightAssertions.assertThat(page.locator("#settings-summaries")).hasValue("off");
        PlaywrightAssertions.assertThat(page.locator("#settings-max-tokens")).hasValue("50000");
        screenshot("settings");

        page.fill("#settings-model-contextualizer", "watson:x");
        page.click("#settings-form button[type=submit]");
        PlaywrightAssertions.assertThat(page.locator("#message")).containsText("must be one of [ollama, openai, anthropic, gemini]");
        assertThat(consoleErrors).allMatch(error -> error.contains("status of 400"));
        consoleErrors.clear();
        page.fill("#collection", COLLECTION);
    }

    @Test
    @Order(8)
    void theMemoryEndpointsBehindTheUiRefuseBadInputWithAReason() throws Exception {
        assertThat(send("GET", "api/memories", null)).startsWith("400").contains("'scope' is required");
        assertThat(send("GET", "api/memories?scope=a/b", null)).startsWith("400").contains("invalid scope 'a/b'");
        assertThat(send("POST", "api/memories", "{\"scope\": \"ui-e2e\", \"text\": \"  \"}")).startsWith("400").contains("'text' is required");
        assertThat(send("POST", "api/memories/search", "{\"scope\": \"ui-e2e\", \"query\": \"x\", \"k\": 0}")).startsWith("400")
                .contains("'k' must be between 1 and 50");
        assertThat(send("POST", "api/memories/search", "{\"scope\": \"ui-e2e\", \"query\": \"" + "after the wedding ".repeat(500) + "\"}"))
                .startsWith("400").contains("'query' must have at most 8000 characters");
        assertThat(send("POST", "api/memories/no-such-memory/pin", null)).startsWith("404").contains("no memory 'no-such-memory'");
        assertThat(send("GET", "api/corrections?scope=", null)).startsWith("400");
        assertThat(send("GET", "api/ui/config", null)).startsWith("200").contains("\"ingestUrl\":\"http://127.0.0.1:");
    }

    @Test
    @Order(10)
    void theOverviewShowsCollectionsWithCountsEnginesHealthLagRecentJobsAndSources() throws Exception {
        // a source whose folder name is markup, and a plain one beside it: both shown, as text
        String hostile = "<img src=x onerror=\"document.body.dataset.pwned='source'\">";
        Path hostileFolder = Files.createDirectories(sourceRoot.resolve(hostile));
        Path plainFolder = Files.createDirectories(sourceRoot.resolve("plain-notes"));
        for (Path folder : List.of(hostileFolder, plainFolder)) {
            assertThat(send("POST", ingestBase + "api/sources", "{\"type\": \"folder\", \"location\": " + JSON.writeValueAsString(folder.toString())
                    + ", \"collection\": \"" + COLLECTION + "\"}")).startsWith("201");
        }
        Map<?, ?> listed = JSON.readValue(get("api/collections"), Map.class);
        Map<?, ?> ours = ((List<?>) listed.get("collections")).stream().map(Map.class::cast)
                .filter(c -> COLLECTION.equals(c.get("name"))).findFirst().orElseThrow();

        area("overview");
        PlaywrightAssertions.assertThat(page.locator("#overview[data-loaded=true]")).isAttached();
        Locator row = page.locator("#overview-collections tr[data-collection=" + COLLECTION + "]");
        PlaywrightAssertions.assertThat(row).hasAttribute("aria-current", "true");
        assertThat(row.locator("td").allInnerTexts()).containsExactly(COLLECTION, "1", String.valueOf(ours.get("chunks")),
                String.valueOf(ours.get("entities")));
        assertThat(((Number) ours.get("chunks")).intValue()).isPositive();

        for (String engine : List.of("neo4j", "opensearch")) {
            Locator seen = page.locator("#overview-engines tr[data-engine=" + engine + "]");
            PlaywrightAssertions.assertThat(seen).hasCount(2); // by query-api and by the ingest pipeline
            assertThat(seen.allInnerTexts()).allMatch(text -> text.contains("UP")).anyMatch(text -> text.contains("query-api"))
                    .anyMatch(text -> text.contains("ingest-pipeline"));
        }
        PlaywrightAssertions.assertThat(page.locator("#overview-engines tr[data-engine=kafka]")).containsText("UP");
        PlaywrightAssertions.assertThat(page.locator("#overview-lag li[data-stage=parse]")).hasText(java.util.regex.Pattern.compile("parse \\d+"));
        assertThat(page.locator("#overview-lag").innerText()).contains("sink-opensearch").doesNotContain("unavailable");

        Locator upload = page.locator("#overview-jobs tr[data-state=completed]", new Page.LocatorOptions().setHasText("1 of 1 done, 0 failed"));
        PlaywrightAssertions.assertThat(upload.first()).containsText(COLLECTION);

        Locator sources = page.locator("#overview-sources");
        PlaywrightAssertions.assertThat(sources.locator("code", new Locator.LocatorOptions().setHasText("plain-notes"))).hasCount(1);
        PlaywrightAssertions.assertThat(sources.locator("code", new Locator.LocatorOptions().setHasText(hostile))).hasText(hostileFolder.toString());
        PlaywrightAssertions.assertThat(sources.locator("img")).hasCount(0);
        assertThat(page.evaluate("document.body.dataset.pwned")).as("markup in a source's folder name is never run").isNull();
        screenshot("overview");

        // the collection picker is the overview's list too: choosing one makes it the collection of every area
        page.fill("#collection", "ui-other");
        area("overview");
        PlaywrightAssertions.assertThat(row).not().hasAttribute("aria-current", "true");
        row.locator("button").click();
        PlaywrightAssertions.assertThat(page.locator("#collection")).hasValue(COLLECTION);
        PlaywrightAssertions.assertThat(row).hasAttribute("aria-current", "true");

        // a typed collection name that is markup is refused, and the refusal shows the name as text; a valid one beside it lists
        String typed = "<img src=y onerror=\"document.body.dataset.pwned='collection'\">";
        page.fill("#collection", typed);
        area("documents");
        PlaywrightAssertions.assertThat(page.locator("#documents-table tbody")).containsText("invalid collection name '" + typed + "'");
        PlaywrightAssertions.assertThat(page.locator("#documents-table img")).hasCount(0);
        assertThat(page.evaluate("document.body.dataset.pwned")).isNull();
        assertThat(consoleErrors).allMatch(error -> error.contains("status of 400"));
        consoleErrors.clear();
        page.fill("#collection", COLLECTION);
        page.click("#documents-form button[type=submit]");
        PlaywrightAssertions.assertThat(page.locator("#documents-table tbody tr")).containsText("Lighthouse keeping");
    }

    private static String send(String method, String path, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(path.startsWith("http") ? path : base + path)).header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        HttpResponse<String> response = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
        return response.statusCode() + " " + response.body();
    }

    private static String get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
