package dev.openrag.schemas;

import java.util.List;
import java.util.Map;

/**
 * Plain text and structure extracted by the parse stage ({@link Topics#DOCUMENTS_PARSED}): headings
 * with their offsets, and for paginated formats (PDF) the pages' ranges of the text (null: none).
 */
public record DocumentParsed(
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
        List<Heading> headings,
        List<PremadeChunk> chunks,
        Map<String, Object> metadata,
        ApiGraph api,
        List<Page> pages,
        Long arrivedAt) implements EventEnvelope, HasSource, VersionedEvent {

    /** An event without {@link #arrivedAt}, as written before versions were carried. */
    public DocumentParsed(int schemaVersion, String eventId, String documentId, String jobId, String collection, Source source, String title, String mediaType, String text, String contentHash, List<Heading> headings, List<PremadeChunk> chunks, Map<String, Object> metadata, ApiGraph api, List<Page> pages) {
        this(schemaVersion, eventId, documentId, jobId, collection, source, title, mediaType, text, contentHash, headings, chunks, metadata, api, pages, null);
    }
}
