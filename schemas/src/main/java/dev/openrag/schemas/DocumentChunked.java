package dev.openrag.schemas;

import java.util.List;
import java.util.Map;

/**
 * The document text and its chunks ({@link Topics#CHUNKS_CHUNKED}); each chunk's {@code [startOffset,
 * endOffset)} slices the text exactly ({@code -1, -1}: a pre-made chunk not found in it), and the
 * headings and pages of the parse travel along for citations (null: none).
 */
public record DocumentChunked(
        int schemaVersion,
        String eventId,
        String documentId,
        String jobId,
        String collection,
        Source source,
        String title,
        String mediaType,
        String text,
        String contentHash,
        List<Chunk> chunks,
        Map<String, Object> metadata,
        ApiGraph api,
        List<Heading> headings,
        List<Page> pages,
        Long arrivedAt) implements EventEnvelope, HasSource, VersionedEvent {

    /** An event without {@link #arrivedAt}, as written before versions were carried. */
    public DocumentChunked(int schemaVersion, String eventId, String documentId, String jobId, String collection, Source source, String title, String mediaType, String text, String contentHash, List<Chunk> chunks, Map<String, Object> metadata, ApiGraph api, List<Heading> headings, List<Page> pages) {
        this(schemaVersion, eventId, documentId, jobId, collection, source, title, mediaType, text, contentHash, chunks, metadata, api, headings, pages, null);
    }
}
