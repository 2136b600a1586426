package dev.openrag.knowledge.port;

import java.util.List;

import dev.openrag.schemas.GraphExtracted;
import dev.openrag.schemas.SectionSummary;

/** The Document/Section/Chunk/Entity graph of ARCHITECTURE §4. */
public interface GraphStore {

    /**
     * Replaces the document's section tree and chunks (a new version drops chunks it no longer
     * has); {@code sections} are the summaries of the document (empty heading path) and its
     * sections, with their vectors (may be empty).
     */
    void upsertDocument(String collection, String documentId, String title, String sourceUri,
                        String contentHash, List<IndexedChunk> chunks, List<SectionSummary> sections);

    void upsertGraph(GraphExtracted graph);

    /**
     * Embeds the written graph's entities and operations that have no vector yet (graph retrieval
     * seeds by their similarity to a question); returns how many it embedded.
     */
    int embedGraphNodes(GraphExtracted graph, Embedder embedder);

    void deleteDocument(String collection, String documentId);

    /**
     * Removes what {@link #upsertGraph} wrote for the document (its chunks' mentions, its API graph, the
     * entities only it mentioned, chunks it made bare) and leaves its section tree and written chunks: a
     * graph write undone because a delete came while it was made, when the chunks may be a newer version's.
     */
    void deleteGraph(String collection, String documentId);

    /**
     * Whether the database takes writes now, tried with a write transaction that leaves nothing
     * behind; throws what a refused write throws (a Neo4j transient or read-only error).
     */
    void probeWrite();

    long countDocuments(String collection);

    long countChunks(String collection);
}
