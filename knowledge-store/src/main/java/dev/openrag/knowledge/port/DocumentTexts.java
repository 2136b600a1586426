package dev.openrag.knowledge.port;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.openrag.knowledge.browse.ChunkPlace;
import dev.openrag.knowledge.browse.DocumentText;

/**
 * Each document's extracted text, current version only, for exact-span citations. Writes carry the
 * time the document's version arrived (epoch milliseconds) and never go back to an older one; a
 * delete leaves a tombstone with its own time, so a write of a version that arrived before the
 * delete stays out. Each text is written with its chunks' places ({@link ChunkPlace}), so that a
 * citation reads the place of its chunk, never the whole text ({@link #places}).
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

    /** Removes at most {@code limit} tombstones of deletes made before {@code before}; returns how many (see DeleteRecordSweeper). */
    int sweepTombstones(long before, int limit);

    /**
     * Gives each document of the collection stored without a text (ingested before texts were kept)
     * one rebuilt from its stored chunks in order, with every chunk's exact span; a version written
     * by the pipeline meanwhile wins. Returns the ids of the documents given a text.
     */
    List<String> rebuildMissing(String collection);

    /**
     * Gives each text of the collection stored without its chunks' places (written before places were),
     * or without those of its chunks that lie elsewhere than in it ({@link DocumentText#elsewhere}, found
     * among the stored chunks where they are of the text's version), its places, unless a newer version
     * is written meanwhile. Returns the ids of the documents placed.
     */
    default List<String> placeMissing(String collection) {
        return List.of();
    }

    Optional<DocumentText> get(String collection, String documentId);

    /**
     * Where the given chunks lie in their documents' current texts, without reading the texts: which of
     * the documents have a text, whether that version's places are stored (a text written before places
     * were has none: its chunks' spans need the text, {@link #getAll}) and are every chunk's of the version
     * (then a chunk without one is of another version), and the places found. In the same read, the
     * documents' metadata as {@link DocumentMetadataStore#metadataOf} gives it: a search's hits need both,
     * and one round trip costs less than two.
     */
    Places places(String collection, Collection<ChunkLookup.ChunkKey> chunks);

    /**
     * A document's current text as {@link #places} sees it: its version, whether that version's places are
     * stored, and whether they are every chunk's of the version ({@code complete}: a chunk without one is not of it).
     */
    record Kept(String version, boolean placed, boolean complete) {
    }

    /**
     * {@link #places}'s answer: the documents that have a text, by id, the places found, by chunk, and the
     * documents' metadata (JSON values), by id, documents without any absent.
     */
    record Places(Map<String, Kept> documents, Map<ChunkLookup.ChunkKey, ChunkPlace> places, Map<String, Map<String, Object>> metadata) {
    }

    /** The texts of several documents of a collection at once (those that have one). */
    Map<String, DocumentText> getAll(String collection, Collection<String> documentIds);
}
