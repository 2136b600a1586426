package dev.openrag.knowledge.port;

import java.util.List;

import dev.openrag.schemas.GraphExtracted;

/** The Document/Section/Chunk/Entity graph of ARCHITECTURE §4. */
public interface GraphStore {

    /** Replaces the document's sections and chunks (a new version drops chunks it no longer has). */
    void upsertDocument(String collection, String documentId, String title, String sourceUri,
                        String contentHash, List<IndexedChunk> chunks);

    void upsertGraph(GraphExtracted graph);

    void deleteDocument(String collection, String documentId);

    long countDocuments(String collection);

    long countChunks(String collection);
}
