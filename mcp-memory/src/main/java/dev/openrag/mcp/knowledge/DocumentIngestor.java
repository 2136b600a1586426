package dev.openrag.mcp.knowledge;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

import dev.openrag.knowledge.fetch.AddressPolicy;
import dev.openrag.knowledge.fetch.SafeFetcher;
import dev.openrag.knowledge.tracing.Tracing;
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
    private final SafeFetcher fetcher;

    public DocumentIngestor(@Channel("arrived-out") MutinyEmitter<String> arrived,
                            @Channel("status-out") MutinyEmitter<String> status, McpSettings settings, SafeFetcher fetcher) {
        this.fetcher = fetcher;
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

    /**
     * Fetches through the {@link SafeFetcher}: the server never fetches its own ports, the cloud
     * metadata address or private services for an agent unless {@code openrag.fetch.allow-private}
     * opens the range; every redirect is checked again.
     */
    public Ingesting ingestUrl(String url, String title, String collection) {
        URI uri = parseUrl(url);
        SafeFetcher.Fetched response;
        try {
            response = fetcher.get(uri, settings.fetchTimeout(), settings.maxDocumentBytes(), Map.of());
        } catch (AddressPolicy.RefusedException e) {
            throw new ToolCallException(e.getMessage());
        } catch (IOException e) {
            throw new ToolCallException("could not fetch " + url + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolCallException("interrupted while fetching " + url);
        }
        if (response.status() >= 400) {
            throw new ToolCallException("could not fetch " + url + ": HTTP " + response.status());
        }
        if (response.tooLarge()) {
            throw new ToolCallException(url + " is larger than " + settings.maxDocumentBytes() + " bytes (openrag.mcp.max-document-bytes)");
        }
        if (response.body().length == 0) {
            throw new ToolCallException(url + " answered with an empty body");
        }
        return publish(collection, uri.toString(), title, response.contentType(), Base64.getEncoder().encodeToString(response.body()),
                DocumentArrived.BASE64);
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
            send(status, jobId, StageCompleted.accepted(document, Tracing.currentTraceId()));
            send(arrived, document.documentId(), document);
        } catch (RuntimeException e) {
            throw new ToolCallException("could not publish the document to Kafka: " + e.getMessage());
        }
        return new Ingesting(jobId, document.documentId(), collection, uri);
    }

    private void send(MutinyEmitter<String> emitter, String key, EventEnvelope event) {
        emitter.sendMessageAndAwait(Tracing.carryingContext(Message.of(codec.toJson(event))
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(key).build())));
    }
}
