package dev.openrag.schemas;

/** Asks every sink to remove a document ({@link Topics#DOCUMENTS_DELETED}). */
public record DocumentDeleted(
        int schemaVersion,
        String eventId,
        String documentId,
        String jobId,
        String collection) implements EventEnvelope {
}
