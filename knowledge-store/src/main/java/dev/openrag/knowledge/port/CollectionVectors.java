package dev.openrag.knowledge.port;

import java.util.List;
import java.util.Map;

/**
 * A collection's chunks and vectors, with a cheap version to tell when a copy of them is out of
 * date and a way to read only what changed since: what an in-memory copy of a small collection
 * needs from the store that owns it.
 */
public interface CollectionVectors {

    /**
     * The collection's version now: {@code stamp} changes whenever one of its documents is written
     * or deleted; {@code chunks} is about how many chunks it holds (0 for an unknown collection).
     */
    Version version(String collection);

    /**
     * The collection as it is now, read against a copy that knows {@code known} (document id →
     * the document's stamp when the copy read it; empty: read everything): the version, every
     * document's stamp, and the chunks (with vectors) of the documents whose stamp is not the
     * known one. A document missing from {@link Changes#documents} was deleted. The version is
     * read first, so the changes are never older than the version they carry.
     */
    Changes changesSince(String collection, Map<String, String> known);

    record Version(String stamp, long chunks) {
    }

    /** See {@link #changesSince}; {@code chunks} are those a vector search can find (text and vector set). */
    record Changes(Version version, Map<String, String> documents, List<IndexedChunk> chunks) {
    }
}
