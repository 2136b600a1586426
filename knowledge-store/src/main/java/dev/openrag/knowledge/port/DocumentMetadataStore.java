package dev.openrag.knowledge.port;

import java.util.Collection;
import java.util.Map;
import java.util.Set;

import dev.openrag.knowledge.filter.DocumentFilter;

/**
 * Documents' metadata where it is kept whole, whatever the vector backend: the document nodes of
 * the graph. Retrievers that cannot translate a filter themselves (the vector indexes, graph
 * retrieval) search within the documents it selects.
 */
public interface DocumentMetadataStore {

    /** Makes {@code metadata} (checked, JSON values) the document's only metadata. */
    void replaceMetadata(String collection, String documentId, Map<String, Object> metadata);

    /** What is stored of a document's version: enough to tell whether a new one changes only its metadata. */
    record StoredVersion(String contentHash, String title, int chunks, Map<String, Object> metadata) {
    }

    /** The stored version of the document, if it is stored. */
    java.util.Optional<StoredVersion> storedVersion(String collection, String documentId);

    /**
     * Records {@code version} as the newest version of the document sent down the whole pipeline
     * (written before it is sent on): until every metadata-keeping store has stored it
     * ({@link #versionStored}), a later version must not update metadata in place, or the older
     * one's write, still to come, would put its metadata back over it.
     */
    void versionEntered(String collection, String documentId, String version);

    /** Records that {@code store} has written {@code version} of the document (its chunks and metadata). */
    void versionStored(String collection, String documentId, String store, String version);

    /**
     * Whether each of {@code stores} holds the newest version that entered the pipeline, so that no
     * version of the document is still on its way to them; false when none was recorded.
     */
    boolean versionSettled(String collection, String documentId, Collection<String> stores);

    /** The ids of the collection's documents that {@code filter} selects. */
    Set<String> matching(String collection, DocumentFilter filter);

    /** Metadata (JSON values, dates as ISO-8601 instants) of the given documents, by id; documents without any are absent. */
    Map<String, Map<String, Object>> metadataOf(String collection, Collection<String> documentIds);
}
