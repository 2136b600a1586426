package dev.openrag.knowledge.browse;

/** A collection: its name and how many documents, chunks and entities the graph holds. */
public record CollectionSummary(String name, long documents, long chunks, long entities) {
}
