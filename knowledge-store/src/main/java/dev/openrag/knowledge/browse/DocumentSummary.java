package dev.openrag.knowledge.browse;

import java.util.Map;

/** A document of a collection as the graph store knows it, with its metadata (JSON values; empty: none). */
public record DocumentSummary(String documentId, String collection, String title, String sourceUri, int chunkCount,
                              String updatedAt, Map<String, Object> metadata) {

    public DocumentSummary {
        metadata = metadata == null ? Map.of() : metadata;
    }

    public DocumentSummary(String documentId, String collection, String title, String sourceUri, int chunkCount, String updatedAt) {
        this(documentId, collection, title, sourceUri, chunkCount, updatedAt, Map.of());
    }
}
