package dev.openrag.ingest.source.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import dev.openrag.knowledge.fetch.AddressPolicy;

/**
 * The crawler browser's policy proxy over raw sockets, as Chromium speaks to it: plain requests in
 * absolute form, tunnels with CONNECT. Host names come from a stub resolver ("site.test" is
 * 127.0.0.1, which the policy allows; "internal.test" is 127.0.0.2, which it refuses), so a request
 * that arrives shows the proxy connected to the address it checked, never resolving again.
 */
class PolicyProxyTest {

    private HttpServer site;
    private final List<String> received = new CopyOnWriteArrayList<>();
    private PolicyProxy proxy;

    @BeforeEach
    void start() throws IOException {
        site = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        site.createContext("/", exchange -> {
            received.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " host=" + exchange.getRequestHeaders().getFirst("Host")
                    + " connection=" + exchange.getRequestHeaders().getFirst("Connection"));
            byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Connection", "keep-alive");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        site.start();
        AddressPolicy policy = new AddressPolicy(List.of("127.0.0.1/32"), host -> switch (host) {
            case "site.test" -> new InetAddress[] {InetAddress.getByName("127.0.0.1")};
            case "internal.test" -> new InetAddress[] {InetAddress.getByName("127.0.0.2")};
            default -> throw new UnknownHostException(host);
        });
        proxy = new PolicyProxy(policy);
    }

    @AfterEach
    void stop() {
        proxy.close();
        site.stop(0);
    }

    private String exchange(String request) throws IOException {
        URI address = URI.create(proxy.address());
        try (Socket socket = new Socket(address.getHost(), address.getPort())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void forwardsAPlainRequestToTheCheckedAddressOnceWithConnectionClose() throws IOException {
        int port = site.getAddress().getPort();
        String response = exchange("GET http://site.test:" + port + "/page?q=1 HTTP/1.1\r\nHost: site.test:" + port
                + "\r\nProxy-Connection: keep-alive\r\nConnection: keep-alive\r\n\r\n");
        assertThat(response).startsWith("HTTP/1.1 200").contains("Connection: close").endsWith("hello")
                .doesNotContainIgnoringCase("connection: keep-alive");
        assertThat(received).containsExactly("GET /page?q=1 host=site.test:" + port + " connection=close");
        assertThat(proxy.drainRefusals()).isEmpty();
    }

    @Test
    void refusesARefusedAddressForPlainRequestsAndTunnelsAndRemembersIt() throws IOException {
        String plain = exchange("GET http://internal.test:" + site.getAddress().getPort() + "/secret HTTP/1.1\r\nHost: internal.test\r\n\r\n");
        assertThat(plain).startsWith("HTTP/1.1 403").contains("loopback");
        String tunnel = exchange("CONNECT internal.test:443 HTTP/1.1\r\nHost: internal.test:443\r\n\r\n");
        assertThat(tunnel).startsWith("HTTP/1.1 403").contains("loopback");
        String nowhere = exchange("GET http://nowhere.test/ HTTP/1.1\r\nHost: nowhere.test\r\n\r\n");
        assertThat(nowhere).startsWith("HTTP/1.1 502").contains("does not resolve");
        assertThat(received).isEmpty();
        assertThat(proxy.drainRefusals()).extracting(PolicyProxy.Refusal::url, PolicyProxy.Refusal::unresolved).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("http://internal.test:" + site.getAddress().getPort() + "/secret", false),
                org.assertj.core.groups.Tuple.tuple("internal.test:443", false),
                org.assertj.core.groups.Tuple.tuple("http://nowhere.test/", true));
        assertThat(proxy.drainRefusals()).as("each once").isEmpty();
    }

    @Test
    void tunnelsToAnAllowedAddress() throws IOException {
        int port = site.getAddress().getPort();
        String response = exchange("CONNECT site.test:" + port + " HTTP/1.1\r\nHost: site.test:" + port + "\r\n\r\n"
                + "GET /through-tunnel HTTP/1.1\r\nHost: site.test\r\nConnection: close\r\n\r\n");
        assertThat(response).startsWith("HTTP/1.1 200 Connection Established").contains("hello");
        assertThat(received).containsExactly("GET /through-tunnel host=site.test connection=close");
    }

    @Test
    void badRequestsAreClearErrors() throws IOException {
        assertThat(exchange("NONSENSE\r\n\r\n")).startsWith("HTTP/1.1 400").contains("malformed");
        assertThat(exchange("GET /relative HTTP/1.1\r\nHost: x\r\n\r\n")).startsWith("HTTP/1.1 400").contains("absolute http URL");
        assertThat(exchange("GET file:///etc/passwd HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 400");
        assertThat(exchange("CONNECT site.test HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 400").contains("host:port");
        assertThat(received).isEmpty();
    }
}
