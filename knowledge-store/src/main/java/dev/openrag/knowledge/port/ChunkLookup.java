package dev.openrag.knowledge.port;

import java.util.Collection;
import java.util.List;

/** Chunks by their place in a document, for a search that wants a hit's neighbours or its document's head. */
public interface ChunkLookup {

    /** A chunk's place: its document and its index in it. */
    record ChunkKey(String documentId, int chunkIndex) {
    }

    /** The chunks of {@code collection} at {@code keys} that exist (any order, without vectors). */
    List<IndexedChunk> chunks(String collection, Collection<ChunkKey> keys);

    /** Whether a copy of the collection's chunks is held in memory, at whatever version (nothing is asked of a store). */
    default boolean holdsCopy(String collection) {
        return false;
    }

    /**
     * The chunks at {@code keys} from the copy held in memory, only where that copy is the collection at {@code version}
     * (as {@link CollectionVectors#version} reads it now); null otherwise. Nothing is asked of a store; a key the copy
     * lacks is absent.
     */
    default List<IndexedChunk> heldChunks(String collection, CollectionVectors.Version version, Collection<ChunkKey> keys) {
        return null;
    }
}
