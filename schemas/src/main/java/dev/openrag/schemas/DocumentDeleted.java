package dev.openrag.schemas;

/**
 * Asks every sink to remove a document ({@link Topics#DOCUMENTS_DELETED}). {@link #deletedAt} is the
 * time the delete was accepted, fixed once there, so that every store orders it against the document's
 * versions ({@link VersionedEvent#arrivedAt}) the same way, whatever its host's clock.
 */
public record DocumentDeleted(
        int schemaVersion,
        String eventId,
        String documentId,
        String jobId,
        String collection,
        Long deletedAt) implements EventEnvelope {

    /** An event without {@link #deletedAt}, as written before it was fixed at acceptance. */
    public DocumentDeleted(int schemaVersion, String eventId, String documentId, String jobId, String collection) {
        this(schemaVersion, eventId, documentId, jobId, collection, null);
    }
}
