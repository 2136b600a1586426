package dev.openrag.ingest;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A small site for crawler tests on 127.0.0.1: robots.txt disallowing /secret/, a link cycle, a
 * JavaScript-rendered page, a login-protected area (alice / s3cret, session cookie) whose login page
 * records every value typed into it, a PDF, a slow page, a 500 page, two pages a test can change or
 * remove, and two login pages that send the browser on to {@link #otherOrigin} (a 302, a script).
 * Logs every request with its time.
 */
final class CrawlTestSite implements AutoCloseable {

    record Request(String path, long atNanos) {
    }

    final List<Request> requests = new CopyOnWriteArrayList<>();
    volatile String changingText = "Version one of the changing page mentions walruses.";
    volatile boolean vanished;
    /** Where the attack pages try to reach (an address the fetch rules refuse), e.g. http://127.0.0.2:PORT. */
    volatile String internalBase = "http://127.0.0.2:9";
    private final HttpServer server;
    /** Made once: rendering a PDF on a busy machine can take longer than the crawler's test timeout. */
    private final byte[] pdf = Fixtures.pdf("Quarterly report about axolotls.");

    CrawlTestSite(long slowMillis) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/", exchange -> {
            requests.add(new Request(exchange.getRequestURI().getPath(), System.nanoTime())); // the limiter's clock
            try {
                route(exchange, slowMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    /** Every login form posted to the site, decoded ("user=alice&pass=..."), in order. */
    final List<String> postedLogins = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Every value the login page's script saw typed into a field (its input events), in order. */
    final List<String> keystrokes = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Where /login-moved and /login-scripted send the browser: another site's base URL, e.g. http://127.0.0.1:PORT. */
    volatile String otherOrigin = "http://127.0.0.2:9";

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** Requests for pages (not robots.txt, not the login form post), in order. */
    List<Request> pageRequests() {
        return requests.stream().filter(r -> !r.path().equals("/robots.txt")).toList();
    }

    private void route(HttpExchange exchange, long slowMillis) throws IOException, InterruptedException {
        String path = exchange.getRequestURI().getPath();
        switch (path) {
            case "/robots.txt" -> send(exchange, 200, "text/plain", "User-agent: *\nDisallow: /secret/\n");
            case "/" -> html(exchange, "Home", """
                    <nav><a href="/a">Alpha</a></nav>
                    <main><h1>Crawler test site</h1><p>The home page lists everything.</p>
                    <ul><li><a href="/a">Alpha</a></li><li><a href="/js">Rendered</a></li>
                    <li><a href="/secret/page">Secret</a></li><li><a href="/private/area">Members</a></li>
                    <li><a href="/doc.pdf">Report</a></li><li><a href="/error">Broken</a></li>
                    <li><a href="/slow">Slow</a></li><li><a href="http://unreachable.invalid/x">Elsewhere</a></li></ul></main>
                    <footer>Footer boilerplate about cookies</footer>""");
            case "/a" -> html(exchange, "Alpha", "<main><h1>Alpha</h1><p>Alpha page about zebras.</p><a href=\"/b\">to beta</a></main>");
            case "/b" -> html(exchange, "Beta", "<main><h1>Beta</h1><p>Beta page about ibexes.</p><a href=\"/a\">back to alpha</a></main>");
            case "/js" -> html(exchange, "Rendered", """
                    <main id="content"></main>
                    <script>setTimeout(() => { document.getElementById('content').innerHTML =
                      '<h1>Rendered</h1><p>Rendered by JavaScript: quokkas live here.</p>'; }, 200);</script>""");
            case "/secret/page" -> html(exchange, "Secret", "<main><p>Disallowed content about narwhals.</p></main>");
            case "/login" -> {
                if ("POST".equals(exchange.getRequestMethod())) {
                    String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                    postedLogins.add(java.net.URLDecoder.decode(form, StandardCharsets.UTF_8));
                    if (form.contains("user=alice") && form.contains("pass=s3cret")) {
                        exchange.getResponseHeaders().add("Set-Cookie", "session=ok; Path=/");
                        exchange.getResponseHeaders().add("Location", "/private/area");
                        exchange.sendResponseHeaders(302, -1);
                    } else {
                        html(exchange, "Login", "<main><p id=\"error\">Wrong password</p></main>");
                    }
                } else {
                    html(exchange, "Login", """
                            <main><form method="post" action="/login"><input id="user" name="user"><input id="pass" name="pass" type="password">
                            <button id="go" type="submit">Sign in</button></form></main>
                            <script>document.addEventListener('input', e => fetch('/keys', {method: 'POST', body: e.target.value}));</script>""");
                }
            }
            case "/keys" -> {
                keystrokes.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                send(exchange, 200, "text/plain", "recorded");
            }
            case "/login-moved" -> redirect(exchange, otherOrigin + "/login");
            case "/login-scripted" -> html(exchange, "Moving", "<main><p>Moving to the new login page.</p></main><script>"
                    + "addEventListener('load', () => setTimeout(() => { location = '" + otherOrigin + "/login'; }, 100));</script>");
            case "/private/area" -> {
                String cookies = String.join(";", exchange.getRequestHeaders().getOrDefault("Cookie", List.of()));
                if (cookies.contains("session=ok")) {
                    html(exchange, "Members", "<main><h1 id=\"welcome\">Members area</h1><p>Members only: platypus breeding notes.</p></main>");
                } else {
                    exchange.getResponseHeaders().add("Location", "/login");
                    exchange.sendResponseHeaders(302, -1);
                }
            }
            case "/doc.pdf" -> send(exchange, 200, "application/pdf", pdf);
            case "/slow" -> {
                Thread.sleep(slowMillis);
                html(exchange, "Slow", "<main><p>Too late.</p></main>");
            }
            case "/error" -> send(exchange, 500, "text/plain", "boom");
            case "/changing" -> html(exchange, "Changing", "<main><p>" + changingText + "</p></main>");
            case "/vanishing" -> {
                if (vanished) {
                    send(exchange, 404, "text/plain", "gone");
                } else {
                    html(exchange, "Vanishing", "<main><p>This page about pangolins will disappear.</p></main>");
                }
            }
            case "/attack/script" -> html(exchange, "Capybaras", attackPage());
            case "/attack/redirect" -> redirect(exchange, internalBase + "/from-page-redirect");
            case "/sw.js" -> send(exchange, 200, "text/javascript",
                    "self.addEventListener('install', () => fetch('" + internalBase + "/from-service-worker'));");
            default -> {
                if (path.startsWith("/redirect-to-internal/")) {
                    redirect(exchange, internalBase + "/" + path.substring("/redirect-to-internal/".length()));
                } else {
                    send(exchange, 404, "text/plain", "not found");
                }
            }
        }
    }

    /**
     * Issue 60's attacks on the crawler's browser, each with a legitimate twin on this site: a
     * stylesheet, a fetch, a script behind a redirect and a WebSocket aimed at the internal address,
     * a service worker, and a link that redirects there.
     */
    private String attackPage() {
        String internalWs = internalBase.replace("http:", "ws:");
        String ownWs = url("/allowed-websocket").replace("http:", "ws:");
        return "<main><h1>Capybaras</h1><p>This page about capybaras tries to reach an internal address.</p>"
                + "<a href=\"/attack/redirect\">more</a></main>"
                + "<link rel=\"stylesheet\" href=\"" + internalBase + "/from-stylesheet\">"
                + "<script src=\"/redirect-to-internal/from-redirected-script\"></script>"
                + "<script>"
                + "fetch('" + internalBase + "/from-fetch').catch(() => {});"
                + "fetch('/allowed-by-script').catch(() => {});"
                + "try { new WebSocket('" + internalWs + "/from-websocket'); } catch (e) {}"
                + "try { new WebSocket('" + ownWs + "'); } catch (e) {}"
                + "if (navigator.serviceWorker) { navigator.serviceWorker.register('/sw.js').catch(() => {}); }"
                + "</script>";
    }

    private static void redirect(HttpExchange exchange, String location) throws IOException {
        exchange.getResponseHeaders().add("Location", location);
        exchange.sendResponseHeaders(302, -1);
    }

    private static void html(HttpExchange exchange, String title, String body) throws IOException {
        send(exchange, 200, "text/html; charset=utf-8", "<!doctype html><html><head><title>" + title + "</title></head><body>"
                + body + "</body></html>");
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        send(exchange, status, type, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        } catch (IOException clientGone) {
            // the crawler gave up (timeout)
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }

    static Map<String, Object> login(Object password) {
        return Map.of("#user", "alice", "#pass", password);
    }
}
