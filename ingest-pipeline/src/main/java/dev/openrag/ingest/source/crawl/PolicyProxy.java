package dev.openrag.ingest.source.crawl;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

import dev.openrag.knowledge.fetch.AddressPolicy;

/**
 * The one point all of the crawler browser's traffic (and git sources' fetches) passes: an HTTP forward proxy on 127.0.0.1
 * that Chromium is started with. Each request's host is resolved and checked by the
 * {@link AddressPolicy}, and the proxy connects to the checked address itself, so a rebinding DNS
 * answer cannot swap it afterwards. It sees what Playwright's {@code route} does not: redirect hops
 * (each hop is a new request here), requests of service workers, and WebSockets (Chromium tunnels
 * them, like HTTPS, with {@code CONNECT}).
 *
 * <p>Plain HTTP requests are forwarded one per connection ({@code Connection: close} both ways), so
 * a connection the browser would reuse for another host is never sent to the first one's address.
 * A refused request gets a 403 (an unresolved host a 502) and is remembered for the crawl's
 * per-URL report.
 */
public final class PolicyProxy implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(PolicyProxy.class);
    private static final int MAX_HEAD_BYTES = 64 * 1024;
    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;

    /** A request the proxy did not send: the URL (host:port for a tunnel) and the policy's reason (refused, or unresolved). */
    record Refusal(String url, String reason, boolean unresolved) {
    }

    private final AddressPolicy policy;
    private final ServerSocket server;
    private final Map<String, AddressPolicy.RefusedException> refusals = new ConcurrentHashMap<>();
    private final List<Socket> open = java.util.Collections.synchronizedList(new ArrayList<>());

    public PolicyProxy(AddressPolicy policy) {
        this.policy = policy;
        try {
            this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new CrawlerUnavailableException("cannot open the crawler's policy proxy on 127.0.0.1: " + e.getMessage());
        }
        Thread.ofVirtual().name("crawler-proxy-accept").start(this::accept);
    }

    /** Where the proxy listens (127.0.0.1), for clients other than Chromium (JGit for git sources). */
    public java.net.InetSocketAddress socketAddress() {
        return new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    /** For Chromium's {@code --proxy-server}. */
    String address() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** The requests refused since the last call, each once. */
    List<Refusal> drainRefusals() {
        List<Refusal> drained = new ArrayList<>();
        for (String url : List.copyOf(refusals.keySet())) {
            AddressPolicy.RefusedException refused = refusals.remove(url);
            if (refused != null) {
                drained.add(new Refusal(url, refused.getMessage(), refused.unresolved()));
            }
        }
        return drained;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                open.add(client);
                Thread.ofVirtual().name("crawler-proxy").start(() -> serve(client));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            InputStream fromClient = client.getInputStream();
            OutputStream toClient = client.getOutputStream();
            byte[] head = readHead(fromClient);
            if (head == null) {
                return;
            }
            String[] lines = new String(head, StandardCharsets.ISO_8859_1).split("\r\n");
            String[] requestLine = lines[0].split(" ");
            if (requestLine.length != 3) {
                answer(toClient, 400, "malformed request line");
                return;
            }
            if ("CONNECT".equalsIgnoreCase(requestLine[0])) {
                tunnel(requestLine[1], fromClient, toClient);
            } else {
                forward(requestLine, lines, fromClient, toClient);
            }
        } catch (IOException e) {
            LOG.debugf("crawler proxy: %s", e.getMessage());
        } finally {
            open.remove(client);
        }
    }

    /** HTTPS and WebSockets: checked once, then bytes both ways between the browser and the checked address. */
    private void tunnel(String authority, InputStream fromClient, OutputStream toClient) throws IOException {
        URI target = URI.create("https://" + authority + "/");
        if (target.getHost() == null || target.getPort() < 0) {
            answer(toClient, 400, "CONNECT needs host:port");
            return;
        }
        try (Socket upstream = connect(authority, target, target.getPort(), toClient)) {
            if (upstream == null) {
                return;
            }
            toClient.write("HTTP/1.1 200 Connection Established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            toClient.flush();
            pipeBoth(fromClient, toClient, upstream, null);
        }
    }

    /** Plain HTTP: the absolute URL checked, the request sent in origin form with Connection: close. */
    private void forward(String[] requestLine, String[] lines, InputStream fromClient, OutputStream toClient) throws IOException {
        URI target;
        try {
            target = URI.create(requestLine[1]);
        } catch (IllegalArgumentException e) {
            answer(toClient, 400, "not a URL: " + requestLine[1]);
            return;
        }
        if (!"http".equalsIgnoreCase(target.getScheme()) || target.getHost() == null) {
            answer(toClient, 400, "a proxy request needs an absolute http URL");
            return;
        }
        int port = target.getPort() < 0 ? 80 : target.getPort();
        try (Socket upstream = connect(requestLine[1], target, port, toClient)) {
            if (upstream == null) {
                return;
            }
            StringBuilder request = new StringBuilder();
            String path = target.getRawPath() == null || target.getRawPath().isEmpty() ? "/" : target.getRawPath();
            request.append(requestLine[0]).append(' ').append(path)
                    .append(target.getRawQuery() == null ? "" : "?" + target.getRawQuery()).append(' ').append(requestLine[2]).append("\r\n");
            for (int i = 1; i < lines.length; i++) {
                String name = lines[i].split(":", 2)[0].strip().toLowerCase(Locale.ROOT);
                if (!name.isEmpty() && !name.startsWith("proxy-") && !name.equals("connection") && !name.equals("keep-alive")) {
                    request.append(lines[i]).append("\r\n");
                }
            }
            request.append("Connection: close\r\n\r\n");
            OutputStream toUpstream = upstream.getOutputStream();
            toUpstream.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            toUpstream.flush();
            pipeBoth(fromClient, toClient, upstream, this::closeConnection);
        }
    }

    /** The checked address's socket, or null after answering the browser with why not. */
    private Socket connect(String requested, URI target, int port, OutputStream toClient) throws IOException {
        InetAddress[] addresses;
        try {
            addresses = policy.check(target);
        } catch (AddressPolicy.RefusedException e) {
            refusals.put(requested, e);
            LOG.debugf("crawler browser: not sent %s: %s", requested, e.getMessage());
            answer(toClient, e.unresolved() ? 502 : 403, e.getMessage());
            return null;
        }
        Socket upstream = new Socket();
        try {
            upstream.connect(new InetSocketAddress(addresses[0], port), CONNECT_TIMEOUT_MILLIS);
        } catch (IOException e) {
            upstream.close();
            answer(toClient, 502, "cannot connect to " + target.getHost() + ":" + port + ": " + e.getMessage());
            return null;
        }
        open.add(upstream);
        return upstream;
    }

    /**
     * Browser to upstream on a second thread, upstream to browser here; ends when the upstream side
     * ends. {@code responseHead} rewrites the response's head first (null: bytes as they come).
     */
    private void pipeBoth(InputStream fromClient, OutputStream toClient, Socket upstream,
                          java.util.function.UnaryOperator<byte[]> responseHead) throws IOException {
        OutputStream toUpstream = upstream.getOutputStream();
        Thread up = Thread.ofVirtual().name("crawler-proxy-up").start(() -> {
            try {
                fromClient.transferTo(toUpstream);
                upstream.shutdownOutput();
            } catch (IOException ended) {
                // either side closed
            }
        });
        try {
            InputStream fromUpstream = upstream.getInputStream();
            if (responseHead != null) {
                byte[] head = readHead(fromUpstream);
                if (head == null) {
                    return;
                }
                toClient.write(responseHead.apply(head));
            }
            fromUpstream.transferTo(toClient);
            toClient.flush();
        } finally {
            open.remove(upstream);
            upstream.close();
            up.interrupt();
        }
    }

    /** The response head with {@code Connection: close}: the browser must not reuse this connection for another host. */
    private byte[] closeConnection(byte[] head) {
        String[] lines = new String(head, StandardCharsets.ISO_8859_1).split("\r\n");
        StringBuilder rewritten = new StringBuilder(lines[0]).append("\r\n");
        for (int i = 1; i < lines.length; i++) {
            String name = lines[i].split(":", 2)[0].strip().toLowerCase(Locale.ROOT);
            if (!name.isEmpty() && !name.equals("connection") && !name.equals("keep-alive") && !name.equals("proxy-connection")) {
                rewritten.append(lines[i]).append("\r\n");
            }
        }
        return rewritten.append("Connection: close\r\n\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Bytes up to and including the blank line that ends an HTTP head; null when the stream ends first. */
    private static byte[] readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (head.size() < MAX_HEAD_BYTES) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : b == '\r' ? 1 : 0;
            if (matched == 4) {
                return head.toByteArray();
            }
        }
        throw new IOException("HTTP head larger than " + MAX_HEAD_BYTES + " bytes");
    }

    private static void answer(OutputStream out, int status, String message) throws IOException {
        byte[] body = message.getBytes(StandardCharsets.UTF_8);
        String reason = switch (status) {
            case 400 -> "Bad Request";
            case 403 -> "Forbidden";
            default -> "Bad Gateway";
        };
        out.write(("HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                + body.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket socket : List.copyOf(open)) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
