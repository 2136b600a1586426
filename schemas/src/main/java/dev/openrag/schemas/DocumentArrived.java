package dev.openrag.schemas;

import java.util.List;
import java.util.Map;

/**
 * The public entry point ({@link Topics#DOCUMENTS_ARRIVED}): any producer may write it.
 * {@code content} is text when {@code contentEncoding} is {@value #TEXT}, base64 bytes when it is
 * {@value #BASE64}; {@code chunks} is set only for pre-chunked input.
 */
public record DocumentArrived(
        int schemaVersion,
        String eventId,
        String documentId,
        String jobId,
        String collection,
        Source source,
        String title,
        String mediaType,
        String content,
        String contentEncoding,
        List<PremadeChunk> chunks,
        Map<String, Object> metadata) implements EventEnvelope, HasSource {

    public static final String TEXT = "text";
    public static final String BASE64 = "base64";
}
