package dev.openrag.knowledge.port;

import java.util.Collection;

/**
 * What a search must know of the stores before it ranks, read in one round trip beside the
 * query's embedding: the searched collection's vector version (whether an in-memory copy of its
 * vectors is current, {@link CollectionVectors}) and whether any feedback, or any pinned memory
 * or correction, exists at all (whether the lookups after ranking are needed). Asked as three
 * separate checks, the three round trips cost Neo4j about 1.3 ms of CPU per search, asked together
 * 0.8 ms, on a 2-core machine where that CPU is taken from the query's embedding and BM25.
 */
public interface SearchState {

    /** {@link #read(String, Collection)} for every memory scope. */
    default Snapshot read(String collection) {
        return read(collection, null);
    }

    /**
     * The state for a search whose pinned memories and corrections come from {@code scopes} (null: every scope).
     * Read live on each search, in the round trip the collection's version needs anyway, so a memory pinned or a
     * correction added through any app instance or path is seen by the very next search.
     */
    Snapshot read(String collection, Collection<String> scopes);

    /**
     * @param vectors        the collection's version, as {@link CollectionVectors#version} reads it
     * @param anyFeedback    whether any feedback on any search exists
     * @param anyPinned      whether the scopes hold a pinned memory (not forgotten, expired or ended)
     * @param anyPinnedAbout whether one of those is about a document or an entity (only then do a search's results'
     *                       subjects, {@link ChunkSubjects}, matter)
     * @param anyCorrections whether the scopes hold a correction
     */
    record Snapshot(CollectionVectors.Version vectors, boolean anyFeedback, boolean anyPinned, boolean anyPinnedAbout,
                    boolean anyCorrections) {

        /** Whether a search's memories and corrections step could return anything. */
        public boolean anyPinnedOrCorrections() {
            return anyPinned || anyCorrections;
        }
    }
}
