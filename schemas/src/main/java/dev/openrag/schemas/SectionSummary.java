package dev.openrag.schemas;

import java.util.List;

/**
 * A summary of one section of a document (its heading path; empty for the document as a whole)
 * with the vector of that summary: the embed stage makes them, the Neo4j sink stores them on
 * {@code Section} and {@code Document} nodes.
 */
public record SectionSummary(List<String> headingPath, String title, String summary, float[] vector) {
}
