package dev.openrag.knowledge.port;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.openrag.knowledge.browse.DocumentText;

/**
 * Each document's extracted text, current version only, for exact-span citations. Writes carry the
 * time the document's version arrived (epoch milliseconds) and never go back to an older one; a
 * delete leaves a tombstone with its own time, so a write of a version that arrived before the
 * delete stays out.
 */
public interface DocumentTexts {

    /**
     * Replaces the document's text with this version's, unless the stored text or tombstone is newer
     * ({@code arrivedAt} of a delete equal to the write's wins too). Returns whether it was written.
     */
    boolean put(DocumentText text, long arrivedAt);

    /** A version that arrived now: tests and imports that write texts directly. */
    default void put(DocumentText text) {
        put(text, System.currentTimeMillis());
    }

    /** Removes the document's text, keeping a tombstone at {@code deletedAt} unless a newer version is stored. */
    void delete(String collection, String documentId, long deletedAt);

    /**
     * Gives each document of the collection stored without a text (ingested before texts were kept)
     * one rebuilt from its stored chunks in order, with every chunk's exact span; a version written
     * by the pipeline meanwhile wins. Returns the ids of the documents given a text.
     */
    List<String> rebuildMissing(String collection);

    Optional<DocumentText> get(String collection, String documentId);

    /** The texts of several documents of a collection at once (those that have one). */
    Map<String, DocumentText> getAll(String collection, Collection<String> documentIds);
}
