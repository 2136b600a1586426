package dev.openrag.knowledge.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.sun.net.httpserver.HttpServer;

/** The SSRF guard: every address class refused by default, redirects re-checked, allow-listed ranges opened. */
class SafeFetcherTest {

    /** A stub resolver the test controls: names the real DNS would not answer. */
    private static InetAddress[] stubResolve(String host) throws UnknownHostException {
        return switch (host) {
            case "intranet.example" -> new InetAddress[] {InetAddress.getByName("10.1.2.3")};
            case "rebound.example" -> new InetAddress[] {InetAddress.getByName("93.184.216.34"), InetAddress.getByName("127.0.0.1")};
            case "public.example" -> new InetAddress[] {InetAddress.getByName("93.184.216.34")};
            default -> InetAddress.getAllByName(host);
        };
    }

    private HttpServer server;
    private int port;

    @BeforeEach
    void startSite() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/page", exchange -> {
            byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/to-other-loopback", exchange -> {
            exchange.getResponseHeaders().add("Location", "http://127.0.0.2:" + port + "/page");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        server.createContext("/to-page", exchange -> {
            exchange.getResponseHeaders().add("Location", "/page");
            exchange.sendResponseHeaders(301, -1);
            exchange.close();
        });
        server.start();
        port = server.getAddress().getPort();
    }

    @AfterEach
    void stopSite() {
        server.stop(0);
    }

    @ParameterizedTest
    @CsvSource({
            "http://127.0.0.1:8081/q/health, loopback",
            "http://localhost:8080/api/collections, loopback",
            "http://[::1]/, loopback",
            "http://0.0.0.0:8080/, unspecified",
            "http://[::]/, unspecified",
            "http://[::ffff:127.0.0.1]/, loopback",
            "http://[::127.0.0.1]/, loopback",
            "http://169.254.169.254/latest/meta-data/, link-local",
            "http://[fe80::1]/, link-local",
            "http://10.0.0.5/, private",
            "http://172.16.3.4/, private",
            "http://192.168.1.1/admin, private",
            "http://[fd00::1]/, private",
            "http://100.64.0.1/, shared",
            "http://224.0.0.1/, multicast",
            "http://intranet.example/wiki, private",
            "http://rebound.example/, loopback"})
    void refusesEveryNonPublicAddressClassNamingTheRule(String url, String rule) {
        AddressPolicy policy = new AddressPolicy(List.of(), SafeFetcherTest::stubResolve);
        assertThatThrownBy(() -> policy.check(URI.create(url))).isInstanceOf(AddressPolicy.RefusedException.class)
                .hasMessageContaining(rule).hasMessageContaining("openrag.fetch.allow-private");
    }

    @Test
    void publicAddressesPassAndOtherSchemesDoNot() {
        AddressPolicy policy = new AddressPolicy(List.of(), SafeFetcherTest::stubResolve);
        assertThatCode(() -> policy.check(URI.create("https://public.example/docs"))).doesNotThrowAnyException();
        assertThatThrownBy(() -> policy.check(URI.create("file:///etc/passwd"))).hasMessageContaining("only http and https");
        assertThatThrownBy(() -> policy.check(URI.create("http://no-such-host.invalid/"))).hasMessageContaining("does not resolve");
    }

    @Test
    void anAllowListedRangeOpensExactlyThatRange() {
        AddressPolicy intranet = new AddressPolicy(List.of("10.0.0.0/8"), SafeFetcherTest::stubResolve);
        assertThatCode(() -> intranet.check(URI.create("http://intranet.example/wiki"))).doesNotThrowAnyException();
        assertThatThrownBy(() -> intranet.check(URI.create("http://192.168.1.1/"))).hasMessageContaining("private");
        assertThatThrownBy(() -> new AddressPolicy(List.of("ten-dot-something"), SafeFetcherTest::stubResolve))
                .hasMessageContaining("not a CIDR range");
    }

    @Test
    void aRedirectIsCheckedAgainBeforeItIsFollowed() throws Exception {
        SafeFetcher fetcher = new SafeFetcher(new AddressPolicy(List.of("127.0.0.1/32"), SafeFetcherTest::stubResolve), Duration.ofSeconds(5));

        SafeFetcher.Fetched page = fetcher.get(URI.create("http://127.0.0.1:" + port + "/to-page"), Duration.ofSeconds(5), 1000, Map.of());
        assertThat(page.status()).isEqualTo(200);
        assertThat(new String(page.body(), StandardCharsets.UTF_8)).isEqualTo("hello");
        assertThat(page.contentType()).isEqualTo("text/plain");
        assertThat(page.uri().getPath()).isEqualTo("/page");

        // allowed host, redirect to a loopback address the allow-list does not open
        assertThatThrownBy(() -> fetcher.get(URI.create("http://127.0.0.1:" + port + "/to-other-loopback"), Duration.ofSeconds(5), 1000,
                Map.of())).isInstanceOf(AddressPolicy.RefusedException.class).hasMessageContaining("127.0.0.2").hasMessageContaining("loopback");

        SafeFetcher.Fetched cut = fetcher.get(URI.create("http://127.0.0.1:" + port + "/page"), Duration.ofSeconds(5), 3, Map.of());
        assertThat(cut.tooLarge()).isTrue();
    }
}
