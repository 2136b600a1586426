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
}
