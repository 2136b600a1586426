package dev.openrag.ingest.source.crawl;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Plain HTTP GETs for what needs no browser: robots.txt and files (PDF, DOCX, ...) handed to the parse stage. */
final class RawFetcher {

    /** A fetched body; {@code tooLarge} when it exceeded the limit (the body is then cut). */
    record Fetched(int status, String contentType, byte[] body, boolean tooLarge) {
    }

    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();
    private final CrawlerSettings settings;

    RawFetcher(CrawlerSettings settings) {
        this.settings = settings;
    }

    Fetched get(String url) throws IOException, InterruptedException {
        HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(settings.pageTimeout())
                .header("User-Agent", settings.userAgent()).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = response.body()) {
            byte[] bytes = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, settings.maxPageBytes() + 1));
            String type = response.headers().firstValue("Content-Type").map(t -> t.split(";")[0].strip()).orElse("application/octet-stream");
            return new Fetched(response.statusCode(), type, bytes, bytes.length > settings.maxPageBytes());
        }
    }
}
