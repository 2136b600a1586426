package dev.openrag.knowledge.port;

import java.util.Collection;
import java.util.List;
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
     * one's write, still to come, would put its metadata back over it. {@code arrivedAt}: when the version arrived
     * (a delete record older than that is kept by {@link #sweepDeletes}, the version still being on its way).
     */
    void versionEntered(String collection, String documentId, String version, long arrivedAt);

    /*
     * Deletes travel on a topic of their own, unordered with the versions, so each store keeps the
     * order the calls were made in by time, as document texts do: a write never undoes a delete made
     * after its version arrived, a delete never removes a version that arrived after it, and a delete
     * wins a tie. A delete is recorded per store (a tombstone kept with the document's versions).
     */

    /** Whether {@code store} may write a version that arrived at {@code arrivedAt}: not when a delete at that time or later is recorded for it. */
    boolean mayWrite(String collection, String documentId, String store, long arrivedAt);

    /**
     * Records that {@code store} has written {@code version} (arrived at {@code arrivedAt}) of the document, its chunks
     * and metadata; false, recording nothing, when a delete at that time or later was recorded for the store meanwhile
     * (the caller then removes what it wrote). Makes no record of a document no version of which entered.
     */
    boolean versionStored(String collection, String documentId, String store, String version, long arrivedAt);

    /**
     * A delete made at {@code deletedAt}, for {@code store}: true, recording it, when the store is to remove the
     * document; false when the store holds a version that arrived after the delete.
     */
    default boolean deleteVersion(String collection, String documentId, String store, long deletedAt) {
        return deleteVersion(collection, documentId, List.of(store), deletedAt);
    }

    /**
     * One delete for several stores that a single removal empties together (Neo4j's chunks and its entity graph):
     * true, recording it for each, when none holds a version that arrived after the delete; false, recording
     * nothing, otherwise (that version's own writes to the others are still to come, and replace what is there).
     */
    boolean deleteVersion(String collection, String documentId, Collection<String> stores, long deletedAt);

    /**
     * When each of {@code stores} holds the newest version that entered the pipeline (none is on its way, none
     * was deleted), records {@code version} (arrived at {@code arrivedAt}) as entered and held by each, for a
     * metadata update in place, and returns true; false, recording nothing, otherwise.
     */
    boolean claimInPlace(String collection, String documentId, Collection<String> stores, String version, long arrivedAt);

    /**
     * Removes at most {@code limit} version records that hold no stored version, entered none after a delete, and
     * whose every delete was made before {@code before}; returns how many. The conditions hold when each is removed:
     * a version stored or entered meanwhile keeps its record. A version older than such a delete could then be written again, so
     * {@code before} lies past the time any such version can still reach a sink (see DeleteRecordSweeper).
     */
    int sweepDeletes(long before, int limit);

    /** The ids of the collection's documents that {@code filter} selects. */
    Set<String> matching(String collection, DocumentFilter filter);

    /** Metadata (JSON values, dates as ISO-8601 instants) of the given documents, by id; documents without any are absent. */
    Map<String, Map<String, Object>> metadataOf(String collection, Collection<String> documentIds);
}
