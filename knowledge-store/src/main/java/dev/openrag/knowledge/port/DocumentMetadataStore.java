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

    /** The ids of the collection's documents that {@code filter} selects. */
    Set<String> matching(String collection, DocumentFilter filter);

    /** Metadata (JSON values, dates as ISO-8601 instants) of the given documents, by id; documents without any are absent. */
    Map<String, Map<String, Object>> metadataOf(String collection, Collection<String> documentIds);
}
