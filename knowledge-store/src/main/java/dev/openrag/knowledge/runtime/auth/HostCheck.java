package dev.openrag.knowledge.runtime.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;

/**
 * Refuses requests whose {@code Host} is not one this server answers to, against DNS rebinding: a page
 * on {@code attacker.example} that rebinds its name to 127.0.0.1 makes the browser call the local apps
 * with {@code Host: attacker.example} (and its own origin, so CORS does not apply). Every path is
 * covered: API, UI, SSE, MCP and {@code /q/}. The allowed hosts are localhost, 127.0.0.1, [::1], the
 * address the app listens on (unless a wildcard), and {@code openrag.http.allowed-hosts} (names such
 * as the compose and Kubernetes service names, or {@code *.example.org}). Others get a 421 with a JSON
 * body. The check always holds while auth is off; with auth on, {@code openrag.http.check-host=false}
 * turns it off (a proxy in front that already pins the host). A request without a Host (HTTP/1.0) is
 * no browser's and passes.
 *
 * <p>Cross-site writes: a request other than GET, HEAD or OPTIONS whose {@code Origin} is neither
 * the request's own host nor an allowed host gets a 403, so a page elsewhere cannot make a visitor's
 * browser post a form (or a no-cors fetch) to the apps, whatever CORS allows for reading. Clients
 * that are not browsers send no Origin and pass; {@code Origin: null} (sandboxed frames, files) is
 * refused.
 */
@ApplicationScoped
public class HostCheck {

    private static final Logger LOG = Logger.getLogger(HostCheck.class);
    /** Before CORS and authentication: a foreign host learns nothing else. */
    static final int PRIORITY = 10_000;

    private final List<String> exact = new ArrayList<>(List.of("localhost", "127.0.0.1", "[::1]"));
    private final List<String> suffixes = new ArrayList<>();

    HostCheck() {
    }

    HostCheck(List<String> allowed, String listening) {
        for (String host : allowed) {
            String name = normalised(host);
            if (name.startsWith("*.")) {
                suffixes.add(name.substring(1));
            } else if (!name.isEmpty()) {
                exact.add(name);
            }
        }
        String bound = normalised(listening);
        if (!bound.isEmpty() && !bound.equals("0.0.0.0") && !bound.equals("[::]") && !bound.equals("::")) {
            exact.add(bound.contains(":") && !bound.startsWith("[") ? "[" + bound + "]" : bound);
        }
    }

    void register(@Observes Filters filters, AuthSettings auth,
                  @ConfigProperty(name = "openrag.http.allowed-hosts") Optional<List<String>> allowed,
                  @ConfigProperty(name = "openrag.http.check-host", defaultValue = "true") boolean check,
                  @ConfigProperty(name = "quarkus.http.host", defaultValue = "localhost") String listening) {
        if (!check && auth.on()) {
            LOG.warn("the Host check is off (openrag.http.check-host=false): a proxy in front must pin the host");
            return;
        }
        if (!check) {
            LOG.warn("openrag.http.check-host=false is ignored while auth is off: every local caller may do everything, so the"
                    + " Host is checked against DNS rebinding");
        }
        HostCheck rules = new HostCheck(allowed.orElse(List.of()), listening);
        filters.register(context -> {
            String host = hostOf(context.request());
            if (host != null && !rules.allows(host)) {
                context.response().setStatusCode(421).putHeader("Content-Type", "application/json")
                        .end("{\"error\":\"misdirected\",\"message\":\"this server does not answer to host '" + printable(host)
                                + "'; add it to openrag.http.allowed-hosts (env OPENRAG_HTTP_ALLOWED_HOSTS) if it is yours\"}");
                return;
            }
            String origin = context.request().getHeader("Origin");
            if (origin != null && !SAFE_METHODS.contains(context.request().method().name()) && !rules.allowsOrigin(origin, host)) {
                context.response().setStatusCode(403).putHeader("Content-Type", "application/json")
                        .end("{\"error\":\"forbidden\",\"message\":\"a cross-site " + context.request().method().name()
                                + " from origin '" + printable(origin) + "' is refused; add its host to openrag.http.allowed-hosts"
                                + " (env OPENRAG_HTTP_ALLOWED_HOSTS) if it is yours\"}");
                return;
            }
            context.next();
        }, PRIORITY);
    }

    private static final java.util.Set<String> SAFE_METHODS = java.util.Set.of("GET", "HEAD", "OPTIONS");

    /** Whether a write from a page of {@code origin} ("scheme://host[:port]") is answered: same host, or an allowed one. */
    boolean allowsOrigin(String origin, String requestHost) {
        java.net.URI uri;
        try {
            uri = java.net.URI.create(origin.strip());
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (uri.getHost() == null || uri.getScheme() == null || !List.of("http", "https").contains(uri.getScheme().toLowerCase(Locale.ROOT))) {
            return false; // "null", file:, extensions
        }
        String originHost = normalised(uri.getHost());
        originHost = originHost.contains(":") && !originHost.startsWith("[") ? "[" + originHost + "]" : originHost;
        return allows(originHost) || requestHost != null && originHost.equals(hostPart(normalised(requestHost)));
    }

    /** Whether a request naming {@code host} (a Host header's host, with or without port) is answered. */
    boolean allows(String host) {
        String name = hostPart(normalised(host));
        return exact.contains(name) || suffixes.stream().anyMatch(name::endsWith);
    }

    private static String hostOf(HttpServerRequest request) {
        HostAndPort authority = request.authority();
        if (authority != null) {
            String host = authority.host();
            return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        }
        return request.getHeader("Host");
    }

    private static String normalised(String host) {
        String name = host == null ? "" : host.strip().toLowerCase(Locale.ROOT);
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }

    /** The host without its port: "[::1]:8080" → "[::1]", "localhost:8080" → "localhost". */
    private static String hostPart(String authority) {
        if (authority.startsWith("[")) {
            int end = authority.indexOf(']');
            return end < 0 ? authority : authority.substring(0, end + 1);
        }
        int colon = authority.indexOf(':');
        String name = colon < 0 ? authority : authority.substring(0, colon);
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }

    /** A host as it may be shown back: letters, digits and a few signs, at most 100 characters. */
    private static String printable(String host) {
        String shown = host.replaceAll("[^A-Za-z0-9.:\\[\\]_-]", "?");
        return shown.length() > 100 ? shown.substring(0, 100) + "…" : shown;
    }
}
