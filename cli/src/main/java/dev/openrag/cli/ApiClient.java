package dev.openrag.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.localstack.LocalStackException;

/**
 * JSON over HTTP to the OpenRAG apps; an unreachable app or an error answer becomes a clear message.
 * HTTP/1.1, as curl speaks it: the JDK client's default, HTTP/2 over cleartext after an upgrade,
 * gains nothing on a local connection and costs both ends CPU for its framing (measured on the
 * 2-core machine: 0.3–0.9 ms more per search).
 */
final class ApiClient {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;
    private final String apiKey;

    /**
     * With the API key of {@code OPENRAG_API_KEY} (needed when the apps run with auth on), else the
     * admin key the local apps were started with ({@code OPENRAG_AUTH_ADMIN_KEY}), if any.
     */
    ApiClient(String baseUrl) {
        this(baseUrl, apiKeyFromEnvironment());
    }

    static String apiKeyFromEnvironment() {
        String key = System.getenv("OPENRAG_API_KEY");
        return key != null && !key.isBlank() ? key : System.getenv("OPENRAG_AUTH_ADMIN_KEY");
    }

    ApiClient(String baseUrl, String apiKey) {
        this.baseUrl = baseUrl.replaceAll("/+$", "");
        this.apiKey = apiKey == null || apiKey.isBlank() ? null : apiKey.strip();
    }

    /** A request to {@code path} carrying the API key, if there is one. */
    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path));
        return apiKey == null ? request : request.header("Authorization", "Bearer " + apiKey);
    }

    JsonNode get(String path) {
        return send(request(path).GET().build());
    }

    /** A GET whose answer is not JSON ({@code /q/metrics}): its body as text. */
    String getText(String path) {
        HttpRequest request = request(path).GET().build();
        return exchange(() -> {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 400) {
                throw new LocalStackException("GET " + path + " failed (HTTP " + response.statusCode() + ")" + hint(response.statusCode()));
            }
            return response.body();
        });
    }

    JsonNode postJson(String path, String json) {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    JsonNode putJson(String path, String json) {
        return send(request(path).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    JsonNode patchJson(String path, String json) {
        return send(request(path).header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(json)).build());
    }

    JsonNode delete(String path) {
        return send(request(path).DELETE().build());
    }

    /**
     * multipart/form-data with one {@code files} part per file and an optional {@code collection}
     * field. Each part is named by its path relative to {@code base}, so two README.md files in
     * different folders stay two documents.
     */
    JsonNode postFiles(String path, List<Path> files, Path base, String collection) throws IOException {
        return postFiles(path, files, base, collection, null);
    }

    /** As above, with a {@code metadata} part (JSON, null: none) for every file of the request. */
    JsonNode postFiles(String path, List<Path> files, Path base, String collection, String metadataJson) throws IOException {
        String boundary = "openrag-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (collection != null) {
            body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"collection\"\r\n\r\n"
                    + collection + "\r\n").getBytes(StandardCharsets.UTF_8));
        }
        if (metadataJson != null) {
            body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"metadata\"\r\n"
                    + "Content-Type: application/json\r\n\r\n" + metadataJson + "\r\n").getBytes(StandardCharsets.UTF_8));
        }
        for (Path file : files) {
            Path absolute = file.toAbsolutePath().normalize();
            Path root = base.toAbsolutePath().normalize();
            String name = (absolute.startsWith(root) ? root.relativize(absolute) : absolute.getFileName()).toString().replace("\"", "");
            body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"" + name
                    + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            body.writeBytes(Files.readAllBytes(file));
            body.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        body.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return send(request(path)
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build());
    }

    /** POSTs JSON asking for {@code text/event-stream} and hands each event (name, JSON data) to {@code onEvent}. */
    void postForEvents(String path, String json, java.util.function.BiConsumer<String, JsonNode> onEvent) {
        HttpRequest request = request(path).header("Content-Type", "application/json")
                .header("Accept", "text/event-stream").POST(HttpRequest.BodyPublishers.ofString(json)).build();
        exchange(() -> {
            HttpResponse<java.util.stream.Stream<String>> response = http.send(request, HttpResponse.BodyHandlers.ofLines());
            if (response.statusCode() >= 400) {
                String body = String.join("\n", response.body().toList());
                throw new LocalStackException("POST " + path + " failed (HTTP " + response.statusCode() + "): "
                        + (body.startsWith("{") ? MAPPER.readTree(body).path("message").asText(body) : body) + hint(response.statusCode()));
            }
            String[] event = {"message"};
            for (String line : (Iterable<String>) response.body()::iterator) {
                if (line.startsWith("event:")) {
                    event[0] = line.substring(6).strip();
                } else if (line.startsWith("data:")) {
                    onEvent.accept(event[0], MAPPER.readTree(line.substring(5).strip()));
                }
            }
            return null;
        });
    }

    private JsonNode send(HttpRequest request) {
        return exchange(() -> {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode json = response.body().isBlank() ? MAPPER.createObjectNode() : MAPPER.readTree(response.body());
            if (response.statusCode() >= 400) {
                throw new LocalStackException(request.method() + " " + request.uri().getPath() + " failed (HTTP "
                        + response.statusCode() + "): " + json.path("message").asText(response.body()) + hint(response.statusCode()));
            }
            return json;
        });
    }

    private String hint(int status) {
        if (status == 401) {
            return apiKey == null ? " (auth is on: set OPENRAG_API_KEY to an API key)" : " (check OPENRAG_API_KEY)";
        }
        return status == 403 ? " (OPENRAG_API_KEY's key does not grant this)" : "";
    }

    /** One HTTP exchange; connection and I/O problems become a message that says what to do. */
    private <T> T exchange(Exchange<T> exchange) {
        try {
            return exchange.run();
        } catch (ConnectException e) {
            throw new LocalStackException("cannot reach " + baseUrl + ": is OpenRAG running? Start it with ./openrag up");
        } catch (IOException e) {
            throw new LocalStackException("talking to " + baseUrl + " failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalStackException("interrupted");
        }
    }

    @FunctionalInterface
    private interface Exchange<T> {
        T run() throws IOException, InterruptedException;
    }
}
