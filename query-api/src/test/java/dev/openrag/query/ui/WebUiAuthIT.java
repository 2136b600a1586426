package dev.openrag.query.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
 * The web UI of a packaged query-api with auth on, in Chromium: it asks for a key, says so when
 * a wrong one is typed, and with a valid one loads the collections and keeps the key for the tab
 * (a reload does not ask again).
 */
class WebUiAuthIT {

    private static final String ADMIN = "ui-it-admin-key";
    private static final Path CHROMIUM = Path.of(System.getProperty("openrag.chromium", "/usr/bin/chromium"));

    private static ProcessSupervisor supervisor;
    private static Playwright playwright;
    private static Browser browser;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        assertThat(CHROMIUM).as("Debian's chromium package (./mvnw installs it when run as root)").isExecutable();
        StackConfig stack = TestStack.ensureAll();
        supervisor = new ProcessSupervisor(Files.createTempDirectory("ui-auth"), false);
        int port = Ports.free();
        supervisor.start(PackagedApp.spec("query-ui-auth", Path.of("target/quarkus-app/quarkus-run.jar"), port, stack,
                // no ingest app here: a free port, not the page's host on 8081, where a running ./openrag up would get the key
                Map.of("OPENRAG_AUTH_ADMIN_KEY", ADMIN, "OPENRAG_UI_INGEST_URL", "http://127.0.0.1:" + Ports.free())));
        base = "http://127.0.0.1:" + port + "/";
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
            supervisor.stop("query-ui-auth", Duration.ofSeconds(20));
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
}
