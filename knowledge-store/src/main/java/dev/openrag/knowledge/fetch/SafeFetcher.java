package dev.openrag.knowledge.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * GET on someone's behalf: every URL, the first and each redirect's, passes the
 * {@link AddressPolicy} before it is requested; redirects are followed here (at most
 * {@value #MAX_REDIRECTS}), never by the HTTP client; the body is read up to a size limit and the
 * whole exchange bounded in time.
 */
public final class SafeFetcher {

    static final int MAX_REDIRECTS = 5;

    /** A fetched body; {@code tooLarge} when it exceeded the limit (the body is then cut there). */
    public record Fetched(URI uri, int status, String contentType, byte[] body, boolean tooLarge) {
    }

    private final AddressPolicy policy;
    private final HttpClient http;

    public SafeFetcher(AddressPolicy policy, Duration connectTimeout) {
        this.policy = policy;
        this.http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).connectTimeout(connectTimeout).build();
    }

    public AddressPolicy policy() {
        return policy;
    }

    /**
     * @throws AddressPolicy.RefusedException when the URL or a redirect points where the server must not go
     * @throws IOException                    when the host cannot be reached or there are too many redirects
     */
    public Fetched get(URI start, Duration timeout, long maxBytes, Map<String, String> headers) throws IOException, InterruptedException {
        URI uri = start;
        for (int redirects = 0; ; redirects++) {
            policy.check(uri);
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).GET();
            headers.forEach(request::header);
            HttpResponse<InputStream> response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                var location = response.headers().firstValue("Location");
                if (response.statusCode() / 100 == 3 && location.isPresent()) {
                    if (redirects == MAX_REDIRECTS) {
                        throw new IOException("more than " + MAX_REDIRECTS + " redirects from " + start);
                    }
                    uri = uri.resolve(location.get());
                    continue;
                }
                byte[] bytes = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
                String type = response.headers().firstValue("Content-Type").map(t -> t.split(";")[0].strip())
                        .orElse("application/octet-stream");
                return new Fetched(uri, response.statusCode(), type, bytes, bytes.length > maxBytes);
            }
        }
    }
}
