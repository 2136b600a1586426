package dev.openrag.knowledge.browse;

/** A document of a collection as the graph store knows it. */
public record DocumentSummary(String documentId, String collection, String title, String sourceUri, int chunkCount,
                              String updatedAt) {
}
