package dev.openrag.mcp.knowledge;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

import dev.openrag.mcp.McpSettings;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.EventCodec;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.Source;
import dev.openrag.schemas.StageCompleted;
import io.quarkiverse.mcp.server.ToolCallException;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;

/**
 * ingest_document's producer side: like every source it reports the document "accepted" on the
 * status topic (keyed by job) and then writes {@link DocumentArrived} to openrag.documents.arrived
 * (keyed by document), so the ingest pipeline's job tracker follows it from the start.
 */
@ApplicationScoped
public class DocumentIngestor {

    /** ingest_document's answer. */
    public record Ingesting(String jobId, String documentId, String collection, String sourceUri) {
    }

    private final MutinyEmitter<String> arrived;
    private final MutinyEmitter<String> status;
    private final McpSettings settings;
    private final EventCodec codec = new EventCodec();
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();

    public DocumentIngestor(@Channel("arrived-out") MutinyEmitter<String> arrived,
                            @Channel("status-out") MutinyEmitter<String> status, McpSettings settings) {
        this.arrived = arrived;
        this.status = status;
        this.settings = settings;
    }

    public Ingesting ingestText(String text, String title, String collection) {
        if (text.getBytes(StandardCharsets.UTF_8).length > settings.maxDocumentBytes()) {
            throw new ToolCallException("argument 'text' is larger than " + settings.maxDocumentBytes()
                    + " bytes (openrag.mcp.max-document-bytes)");
        }
        String uri = "mcp://" + (title != null && !title.isBlank() ? title : Ids.contentHash(text));
        return publish(collection, uri, title, "text/plain", text, DocumentArrived.TEXT);
    }

    public Ingesting ingestUrl(String url, String title, String collection) {
        URI uri = parseUrl(url);
        HttpResponse<InputStream> response;
        try {
            response = http.send(HttpRequest.newBuilder(uri).timeout(settings.fetchTimeout()).GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new ToolCallException("could not fetch " + url + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolCallException("interrupted while fetching " + url);
        }
        try (InputStream body = response.body()) {
            if (response.statusCode() >= 400) {
                throw new ToolCallException("could not fetch " + url + ": HTTP " + response.statusCode());
            }
            byte[] bytes = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, settings.maxDocumentBytes() + 1));
            if (bytes.length > settings.maxDocumentBytes()) {
                throw new ToolCallException(url + " is larger than " + settings.maxDocumentBytes() + " bytes (openrag.mcp.max-document-bytes)");
            }
            if (bytes.length == 0) {
                throw new ToolCallException(url + " answered with an empty body");
            }
            String mediaType = response.headers().firstValue("Content-Type").map(type -> type.split(";")[0].strip())
                    .orElse("application/octet-stream");
            return publish(collection, uri.toString(), title, mediaType, Base64.getEncoder().encodeToString(bytes), DocumentArrived.BASE64);
        } catch (IOException e) {
            throw new ToolCallException("could not read " + url + ": " + e.getMessage());
        }
    }

    private static URI parseUrl(String url) {
        try {
            URI uri = URI.create(url.strip());
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
                throw new ToolCallException("argument 'url' must be an http or https URL, got '" + url + "'");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new ToolCallException("argument 'url' is not a valid URL: " + e.getMessage());
        }
    }

    private Ingesting publish(String collection, String uri, String title, String mediaType, String content, String encoding) {
        String jobId = Ids.newEventId();
        DocumentArrived document = new DocumentArrived(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(),
                Ids.documentIdFromUri(uri), jobId, collection, new Source("mcp", uri), title, mediaType, content, encoding,
                null, Map.of());
        try {
            send(status, jobId, StageCompleted.accepted(document));
            send(arrived, document.documentId(), document);
        } catch (RuntimeException e) {
            throw new ToolCallException("could not publish the document to Kafka: " + e.getMessage());
        }
        return new Ingesting(jobId, document.documentId(), collection, uri);
    }

    private void send(MutinyEmitter<String> emitter, String key, EventEnvelope event) {
        emitter.sendMessageAndAwait(Message.of(codec.toJson(event))
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(key).build()));
    }
}
