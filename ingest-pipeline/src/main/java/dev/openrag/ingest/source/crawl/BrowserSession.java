package dev.openrag.ingest.source.crawl;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.Response;
import com.microsoft.playwright.TimeoutError;
import com.microsoft.playwright.options.LoadState;
import com.microsoft.playwright.options.WaitUntilState;

import dev.openrag.knowledge.fetch.AddressPolicy;

/**
 * One headless Debian Chromium driven by Playwright for one crawl run (single thread): renders
 * pages (JavaScript included), extracts title, main text as Markdown (navigation, header, footer
 * and asides dropped) and links, and logs in by filling a form. Images, fonts and media are not
 * loaded. Nothing is ever downloaded: the browser is {@code openrag.crawler.chromium}.
 */
final class BrowserSession implements AutoCloseable {

    static final List<String> CHROMIUM_ARGS = List.of("--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync");
    private static final Set<String> NOT_LOADED = Set.of("image", "font", "media");

    /** Main content to Markdown: headings keep their level so the Markdown chunker keeps sections. */
    private static final String MAIN_TEXT = """
            () => {
              const root = document.querySelector('main, article, [role=main]') || document.body;
              if (!root) return '';
              const clone = root.cloneNode(true);
              clone.querySelectorAll('nav, header, footer, aside, script, style, noscript, template, form, '
                + '[role=navigation], [role=banner], [role=contentinfo], [aria-hidden=true]').forEach(e => e.remove());
              const blocks = [];
              const walk = (element) => {
                for (const node of element.children) {
                  const tag = node.tagName.toLowerCase();
                  const text = (node.textContent || '').replace(/\\s+/g, ' ').trim();
                  if (/^h[1-6]$/.test(tag)) { if (text) blocks.push('#'.repeat(+tag[1]) + ' ' + text); }
                  else if (tag === 'pre') { blocks.push('```\\n' + node.textContent.trim() + '\\n```'); }
                  else if (tag === 'li') { if (text) blocks.push('- ' + text); }
                  else if (['p', 'blockquote', 'dd', 'dt', 'td', 'th', 'figcaption'].includes(tag)) { if (text) blocks.push(text); }
                  else if (node.children.length) { walk(node); }
                  else if (text) { blocks.push(text); }
                }
              };
              walk(clone);
              return blocks.join('\\n\\n');
            }""";

    private final Playwright playwright;
    private final Browser browser;
    private final BrowserContext context;
    private final Page page;
    private final CrawlerSettings settings;
    private final AddressPolicy policy;

    /**
     * @param policy every request the page makes (the page itself, scripts, XHR) must go where the
     *               server may fetch; others are aborted, and a page a redirect took elsewhere is refused
     */
    BrowserSession(CrawlerSettings settings, AddressPolicy policy) {
        this.settings = settings;
        this.policy = policy;
        if (!Files.isExecutable(Path.of(settings.chromium()))) {
            throw new CrawlerUnavailableException("Chromium not found at " + settings.chromium()
                    + ": install Debian's chromium package (apt-get install chromium; ./openrag up checks it) "
                    + "or set openrag.crawler.chromium");
        }
        this.playwright = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        this.browser = playwright.chromium().launch(new BrowserType.LaunchOptions()
                .setExecutablePath(Path.of(settings.chromium())).setHeadless(true).setArgs(CHROMIUM_ARGS));
        this.context = browser.newContext(new Browser.NewContextOptions().setUserAgent(settings.userAgent()));
        context.route("**/*", route -> {
            if (NOT_LOADED.contains(route.request().resourceType()) || !mayFetch(route.request().url())) {
                route.abort();
            } else {
                route.resume();
            }
        });
        this.page = context.newPage();
        page.setDefaultTimeout(settings.pageTimeout().toMillis());
    }

    /**
     * Loads and renders a page.
     *
     * @throws DownloadInsteadException when the URL is a file the browser would download (PDF, ...)
     */
    RenderedPage render(String url) {
        Response response;
        try {
            response = page.navigate(url, new Page.NavigateOptions().setWaitUntil(WaitUntilState.LOAD)
                    .setTimeout(settings.pageTimeout().toMillis()));
        } catch (PlaywrightException e) {
            if (e.getMessage() != null && e.getMessage().contains("Download is starting")) {
                throw new DownloadInsteadException();
            }
            throw e;
        }
        // Chromium follows redirects itself: what a redirect led to must pass the policy too
        policy.check(URI.create(page.url()));
        int status = response == null ? 200 : response.status();
        String contentType = response == null ? "text/html" : response.headerValue("content-type");
        if (status >= 400 || contentType != null && !contentType.contains("html")) {
            return new RenderedPage(status, contentType, null, null, List.of());
        }
        try {
            page.waitForLoadState(LoadState.NETWORKIDLE, new Page.WaitForLoadStateOptions().setTimeout(settings.renderWait().toMillis()));
        } catch (TimeoutError stillBusy) {
            // pages that keep polling never go idle: take what has rendered
        }
        if (page.content().length() > settings.maxPageBytes()) {
            throw new PageTooLargeException(page.content().length(), settings.maxPageBytes());
        }
        @SuppressWarnings("unchecked")
        List<String> links = (List<String>) page.evalOnSelectorAll("a[href]", "links => links.map(a => a.href)");
        return new RenderedPage(status, contentType, page.title(), (String) page.evaluate(MAIN_TEXT), links);
    }

    private boolean mayFetch(String url) {
        if (!url.startsWith("http:") && !url.startsWith("https:")) {
            return true; // data:, blob:, about: — nothing is fetched from the network
        }
        try {
            policy.check(URI.create(url));
            return true;
        } catch (AddressPolicy.RefusedException | IllegalArgumentException e) {
            return false;
        }
    }

    /** Fills and submits the login form; true when the success selector appears. */
    boolean login(CrawlRequest.Login login, Map<String, String> values) {
        page.navigate(login.url());
        values.forEach(page::fill);
        page.click(login.submit());
        try {
            page.waitForSelector(login.successSelector(), new Page.WaitForSelectorOptions().setTimeout(settings.pageTimeout().toMillis()));
            return true;
        } catch (TimeoutError e) {
            return false;
        }
    }

    @Override
    public void close() {
        playwright.close();
    }

    /** The URL is a file (PDF, DOCX, ...) the browser would download rather than show. */
    static final class DownloadInsteadException extends RuntimeException {
        DownloadInsteadException() {
            super("download", null, false, false);
        }
    }

    static final class PageTooLargeException extends RuntimeException {
        PageTooLargeException(long size, long limit) {
            super("page too large: " + size + " characters, the limit is " + limit + " (openrag.crawler.max-page-bytes)");
        }
    }
}
