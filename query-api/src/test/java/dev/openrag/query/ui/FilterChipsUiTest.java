package dev.openrag.query.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.assertions.PlaywrightAssertions;

import dev.openrag.knowledge.neo4j.Neo4jDocumentMetadata;
import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.localstack.test.AppSettings;
import dev.openrag.localstack.test.LocalStackTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/**
 * The filter chips of the web UI in Chromium (Debian's, through Playwright) against query-api on
 * real Neo4j and OpenSearch: Chat's chips come from the facets with their counts, a chosen chip
 * narrows the search to its documents and removing it widens it again, two values of one field
 * are or-ed, several collections are searched at once, and the Documents view filters its table
 * the same way. Any browser console error fails.
 */
@QuarkusTest
@WithTestResource(LocalStackTestResource.class)
// the settings of FilterAcrossCollectionsTest, whose app boot it shares
@WithTestResource(value = AppSettings.class, initArgs = @ResourceArg(name = "openrag.search.read-timeout", value = "PT30S"))
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FilterChipsUiTest {

    private static final String COLLECTION = "ui-chips";
    private static final String OTHER = "ui-chips-other";
    private static final Path CHROMIUM = Path.of(System.getProperty("openrag.crawler.chromium", System.getProperty("openrag.chromium", "/usr/bin/chromium")));

    @TestHTTPResource("/")
    URL root;

    @Inject
    Driver driver;

    @Inject
    OpenSearchClient openSearch;

    @Inject
    Embedder embedder;

    private Playwright playwright;
    private Browser browser;
    private Page page;
    private final List<String> consoleErrors = new ArrayList<>();

    @BeforeAll
    void start() {
        assertThat(CHROMIUM).as("Debian's chromium package (apt-get install chromium)").isExecutable();
        write(COLLECTION, "pay", "Runbook: restart the payment gateway when invoices stall.", Map.of("team", "payments", "tier", 1));
        write(COLLECTION, "risk", "Runbook: restart the fraud scorer when alerts stall.", Map.of("team", "risk", "tier", 2));
        write(COLLECTION, "ops", "Runbook: restart the deploy pipeline when builds stall.", Map.of("team", "ops", "tier", 2));
        write(OTHER, "elsewhere", "Runbook: restart the mail relay when queues stall.", Map.of("team", "mail"));
        // what is judged is what the page shows, not how fast a busy machine shows it
        PlaywrightAssertions.setDefaultAssertionTimeout(60_000);
        playwright = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        browser = playwright.chromium().launch(new BrowserType.LaunchOptions().setExecutablePath(CHROMIUM).setHeadless(true)
                .setArgs(List.of("--no-sandbox", "--disable-gpu")));
        page = browser.newPage(new Browser.NewPageOptions().setViewportSize(1280, 800));
        page.onConsoleMessage(message -> {
            // no ingest app runs here: the page's polls of it (consumer lag) fail to load, which is not what is judged
            if (message.type().equals("error") && !message.text().startsWith("Failed to load resource")) {
                consoleErrors.add(message.text());
            }
        });
        page.onPageError(error -> consoleErrors.add("uncaught: " + error));
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.close();
        }
        if (playwright != null) {
            playwright.close();
        }
    }

    private void write(String collection, String documentId, String text, Map<String, Object> metadata) {
        IndexedChunk chunk = new IndexedChunk(collection, documentId, collection + "/" + documentId + "#0", 0, "Runbook " + documentId,
                "file:///" + documentId, List.of(), text, "Document: Runbook " + documentId, embedder.embed(List.of(text)).get(0), metadata);
        new Neo4jGraphStore(driver).upsertDocument(collection, documentId, chunk.title(), chunk.sourceUri(), "h", List.of(chunk), List.of());
        new Neo4jDocumentMetadata(driver).replaceMetadata(collection, documentId, metadata);
        new OpenSearchLexicalIndex(openSearch, true).upsert(List.of(chunk));
    }

    private List<String> searchTitles() {
        // the previous answer cleared first, so what is read below is this search's
        page.evaluate("document.querySelector('#search-results').replaceChildren()");
        page.click("#search-button");
        PlaywrightAssertions.assertThat(page.locator("#search-results p.hint")).containsText("results in");
        return page.locator("#search-results tbody strong").allTextContents();
    }

    @Test
    void chipsFilterChatAndDocuments() {
        // a fresh index's first query can be slow on a busy machine: each collection searched once, unasserted
        for (String collection : List.of(COLLECTION, OTHER)) {
            RestAssured.given().contentType("application/json").body(Map.of("query", "restart", "collection", collection))
                    .post("/api/search");
        }
        page.navigate(root + "#chat");
        PlaywrightAssertions.assertThat(page.locator("body[data-ready=true]")).isAttached();
        page.fill("#collection", COLLECTION);
        page.dispatchEvent("#collection", "change");
        PlaywrightAssertions.assertThat(page.locator("#chat-filters select.facet-field option[value=team]")).isAttached();

        page.fill("#question", "restart when it stalls");
        page.selectOption("#search-mode", "bm25");
        assertThat(searchTitles()).hasSize(3);

        // the field's values as chips with their document counts
        page.selectOption("#chat-filters select.facet-field", "team");
        PlaywrightAssertions.assertThat(page.locator("#chat-filters .facet-values .chip")).hasCount(3);
        PlaywrightAssertions.assertThat(page.locator("#chat-filters .facet-values .chip[data-value=payments]")).hasText("payments (1)");
        page.click("#chat-filters .facet-values .chip[data-value=payments]");
        PlaywrightAssertions.assertThat(page.locator("#chat-filters .filter-chips .chip")).hasText("team: payments ×");
        assertThat(searchTitles()).containsExactly("Runbook pay #0");

        // a second value of the same field: either
        page.click("#chat-filters .facet-values .chip[data-value=risk]");
        assertThat(searchTitles()).containsExactlyInAnyOrder("Runbook pay #0", "Runbook risk #0");
        // and a number field, and-ed with it
        page.selectOption("#chat-filters select.facet-field", "tier");
        PlaywrightAssertions.assertThat(page.locator("#chat-filters .facet-values .chip[data-value='2']")).hasText("2 (2)");
        page.click("#chat-filters .facet-values .chip[data-value='2']");
        assertThat(searchTitles()).containsExactly("Runbook risk #0");

        // removing the chips widens it again
        page.click("#chat-filters .filter-chips .chip[data-field=tier]");
        page.click("#chat-filters .filter-chips .chip[data-value=risk]");
        page.click("#chat-filters .filter-chips .chip[data-value=payments]");
        PlaywrightAssertions.assertThat(page.locator("#chat-filters .filter-chips .chip")).hasCount(0);
        assertThat(searchTitles()).hasSize(3);

        // several collections at once, each hit naming its own
        page.fill("#chat-collections", COLLECTION + ", " + OTHER);
        assertThat(searchTitles()).hasSize(4).contains("Runbook elsewhere #0");
        PlaywrightAssertions.assertThat(page.locator("#search-results tbody")).containsText(OTHER);
        page.fill("#chat-collections", "");

        // the Documents view: the same chips filter its table
        page.click("nav a[data-area=documents]");
        PlaywrightAssertions.assertThat(page.locator("#documents-table tbody tr")).hasCount(3);
        page.selectOption("#documents-filters select.facet-field", "team");
        page.click("#documents-filters .facet-values .chip[data-value=ops]");
        PlaywrightAssertions.assertThat(page.locator("#documents-table tbody tr")).hasCount(1);
        PlaywrightAssertions.assertThat(page.locator("#documents-table tbody tr")).containsText("Runbook ops");
        PlaywrightAssertions.assertThat(page.locator("#documents-page")).containsText("(1 documents)");
        page.click("#documents-filters .filter-chips .chip[data-value=ops]");
        PlaywrightAssertions.assertThat(page.locator("#documents-table tbody tr")).hasCount(3);

        assertThat(consoleErrors).as("browser console errors").isEmpty();
    }
}
