package dev.openrag.ingest.source.crawl;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.ElementHandle;
import com.microsoft.playwright.Frame;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.Response;
import com.microsoft.playwright.TimeoutError;
import com.microsoft.playwright.options.LoadState;
import com.microsoft.playwright.options.ServiceWorkerPolicy;
import com.microsoft.playwright.options.WaitUntilState;

import dev.openrag.knowledge.fetch.AddressPolicy;

/**
 * One headless Debian Chromium driven by Playwright for one crawl run (single thread): renders
 * pages (JavaScript included), extracts title, main text as Markdown (navigation, header, footer
 * and asides dropped) and links, and logs in by filling a form. Images, fonts and media are not
 * loaded. Nothing is ever downloaded: the browser is {@code openrag.crawler.chromium}.
 *
 * <p>All of the browser's traffic goes through a {@link PolicyProxy} under the fetch rules
 * (loopback included: {@code <-loopback>} removes Chromium's implicit bypass). Service workers are
 * blocked, and WebRTC may not send UDP around the proxy.
 */
final class BrowserSession implements AutoCloseable {

    static final List<String> CHROMIUM_ARGS = List.of("--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-quic", "--proxy-bypass-list=<-loopback>",
            "--force-webrtc-ip-handling-policy=disable_non_proxied_udp", "--webrtc-ip-handling-policy=disable_non_proxied_udp");
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
    private final PolicyProxy proxy;
    /** Refusals taken from the proxy and not yet reported. */
    private final List<PolicyProxy.Refusal> pendingRefusals = new ArrayList<>();

    /**
     * @param policy every request the browser makes (pages, subresources, XHR, redirect hops,
     *               WebSockets) must go where the server may fetch; the proxy refuses the others
     */
    BrowserSession(CrawlerSettings settings, AddressPolicy policy) {
        this.settings = settings;
        if (!Files.isExecutable(Path.of(settings.chromium()))) {
            throw new CrawlerUnavailableException("Chromium not found at " + settings.chromium()
                    + ": install Debian's chromium package (apt-get install chromium; ./openrag up checks it) "
                    + "or set openrag.crawler.chromium");
        }
        this.proxy = new PolicyProxy(policy);
        List<String> args = new ArrayList<>(CHROMIUM_ARGS);
        args.add("--proxy-server=" + proxy.address());
        Playwright started = null;
        try {
            started = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
            this.browser = started.chromium().launch(new BrowserType.LaunchOptions()
                    .setExecutablePath(Path.of(settings.chromium())).setHeadless(true).setArgs(args));
        } catch (RuntimeException e) {
            if (started != null) {
                started.close();
            }
            proxy.close();
            throw e;
        }
        this.playwright = started;
        this.context = browser.newContext(new Browser.NewContextOptions().setUserAgent(settings.userAgent())
                .setServiceWorkers(ServiceWorkerPolicy.BLOCK));
        context.route("**/*", route -> {
            if (NOT_LOADED.contains(route.request().resourceType())) {
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
            refusalOf(url).ifPresent(reason -> {
                throw new AddressPolicy.RefusedException(reason); // an https URL's tunnel, refused
            });
            throw e;
        }
        // a redirect hop the proxy refused ends the page at the refused URL (the proxy's 403)
        refusalOf(url).or(() -> refusalOf(page.url())).ifPresent(reason -> {
            throw new AddressPolicy.RefusedException(reason);
        });
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

    /** The requests the proxy refused since the last call (subresources, scripts' requests, WebSockets, ...). */
    List<PolicyProxy.Refusal> drainRefusals() {
        List<PolicyProxy.Refusal> drained = proxy.drainRefusals();
        pendingRefusals.addAll(drained);
        List<PolicyProxy.Refusal> all = List.copyOf(pendingRefusals);
        pendingRefusals.clear();
        return all;
    }

    /** Why the proxy refused this URL (an https one as its host:port tunnel), taking it off the list. */
    private Optional<String> refusalOf(String url) {
        pendingRefusals.addAll(proxy.drainRefusals());
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        String tunnel = uri.getHost() + ":" + (uri.getPort() < 0 ? 443 : uri.getPort());
        for (PolicyProxy.Refusal refusal : List.copyOf(pendingRefusals)) {
            if (refusal.url().equals(url) || "https".equals(uri.getScheme()) && refusal.url().equals(tunnel)) {
                pendingRefusals.remove(refusal);
                return Optional.of(refusal.reason());
            }
        }
        return Optional.empty();
    }

    /**
     * Fills and submits the login form; true when the success selector appears. Before each value is
     * typed, and before the form is submitted, the element's frame and every frame above it must show
     * a site of the login's credentials, as the browser reports the frame's URL (after redirects and
     * scripts' navigations; a page's script cannot change it), and so must the address its form (or the submit
     * button's {@code formaction}) sends the values to. The value then goes into that very
     * element: a navigation in between detaches it, and the typing fails instead of going elsewhere.
     * It is set on the element, never sent as keystrokes: those go to whichever frame has the focus,
     * and a frame of another origin on the page can take it between the check and the typing.
     *
     * @throws LoginRefusedException before anything is typed into a page of another origin
     */
    boolean login(CrawlRequest.Login login, LoginTyping typing) {
        page.navigate(login.url());
        for (Map.Entry<String, String> field : typing.values().entrySet()) {
            ElementHandle element = page.waitForSelector(field.getKey());
            requireSite(element, typing);
            element.evaluate(SET_VALUE, field.getValue()); // not fill(): keystrokes, and an error that quotes the value
        }
        ElementHandle submit = page.waitForSelector(login.submit());
        requireSite(submit, typing);
        submit.click();
        try {
            page.waitForSelector(login.successSelector(), new Page.WaitForSelectorOptions().setTimeout(settings.pageTimeout().toMillis()));
            return true;
        } catch (TimeoutError e) {
            return false;
        }
    }

    private static void requireSite(ElementHandle element, LoginTyping typing) {
        for (Frame frame = element.ownerFrame(); frame != null; frame = frame.parentFrame()) {
            Optional<String> refusal = typing.refusal(frame.url());
            if (refusal.isPresent()) {
                throw new LoginRefusedException("login refused before typing: " + refusal.get() + "; nothing was typed there");
            }
        }
        @SuppressWarnings("unchecked")
        List<String> targets = (List<String>) element.evaluate(FORM_TARGETS);
        for (String target : targets) {
            Optional<String> refusal = typing.refusal(target);
            if (refusal.isPresent()) {
                throw new LoginRefusedException("login refused before typing: its form sends the values to " + target + ", and "
                        + refusal.get() + "; nothing was typed there");
            }
        }
    }

    /**
     * Types a value into a text field as a user would (its value, then input and change events), in the field's own
     * frame. An element that is not a text field is an error that names its tag, never the value.
     */
    static final String SET_VALUE = """
            (e, value) => {
              const type = e instanceof HTMLTextAreaElement ? HTMLTextAreaElement : e instanceof HTMLInputElement ? HTMLInputElement : null;
              if (!type) throw new Error('the login field is a <' + e.tagName.toLowerCase() + '>, not an <input> or <textarea>');
              e.focus();
              Object.getOwnPropertyDescriptor(type.prototype, 'value').set.call(e, value);
              e.dispatchEvent(new Event('input', {bubbles: true}));
              e.dispatchEvent(new Event('change', {bubbles: true}));
            }""";

    /**
     * Where submitting the element's form sends its values, as the browser resolves it, against the page's base URL: the
     * action (the page's own URL when it has none) of each form the element belongs to (as a field, as a submit button or
     * inside one, as a label of one, or inside the form), and the {@code formaction} of every element of those forms, so
     * that a click that ends up on any of their buttons is covered. Read through the prototypes, since a field named
     * "action", "elements" or "getAttribute" hides the form's own member of that name.
     */
    static final String FORM_TARGETS = """
            e => {
              const attribute = (element, name) => Element.prototype.getAttribute.call(element, name);
              const target = (element, name) => {
                const value = attribute(element, name);
                if (value === null || value.trim() === '') return document.URL;
                try { return new URL(value.trim(), document.baseURI).href; } catch (error) { return value; }
              };
              const label = e.closest('label');
              const forms = new Set();
              for (const element of [e, e.closest('button, input'), label && label.control]) {
                if (element && element.form instanceof HTMLFormElement) forms.add(element.form);
              }
              const enclosing = e.closest('form');
              if (enclosing) forms.add(enclosing);
              const elements = Object.getOwnPropertyDescriptor(HTMLFormElement.prototype, 'elements').get;
              const targets = [];
              for (const form of forms) {
                targets.push(target(form, 'action'));
                for (const element of elements.call(form)) {
                  if (attribute(element, 'formaction') !== null) targets.push(target(element, 'formaction'));
                }
              }
              return targets;
            }""";

    @Override
    public void close() {
        try {
            playwright.close();
        } finally {
            proxy.close();
        }
    }

    /** The URL is a file (PDF, DOCX, ...) the browser would download rather than show. */
    static final class DownloadInsteadException extends RuntimeException {
        DownloadInsteadException() {
            super("download", null, false, false);
        }
    }

    /** A login would have typed a credential's value into a page that is not one of its sites. */
    static final class LoginRefusedException extends RuntimeException {
        LoginRefusedException(String reason) {
            super(reason, null, false, false);
        }
    }

    static final class PageTooLargeException extends RuntimeException {
        PageTooLargeException(long size, long limit) {
            super("page too large: " + size + " characters, the limit is " + limit + " (openrag.crawler.max-page-bytes)");
        }
    }
}
