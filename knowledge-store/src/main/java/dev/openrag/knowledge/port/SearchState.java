package dev.openrag.knowledge.port;

/**
 * What a search must know of the stores before it ranks, read in one round trip beside the
 * query's embedding: the searched collection's vector version (whether an in-memory copy of its
 * vectors is current, {@link CollectionVectors}) and whether any feedback, or any pinned memory
 * or correction, exists at all (whether the lookups after ranking are needed). Asked as three
 * separate checks, the three round trips cost Neo4j about 1.3 ms of CPU per search, asked together
 * 0.8 ms, on a 2-core machine where that CPU is taken from the query's embedding and BM25.
 */
public interface SearchState {

    Snapshot read(String collection);

    /**
     * @param vectors                the collection's version, as {@link CollectionVectors#version} reads it
     * @param anyFeedback            whether any feedback on any search exists
     * @param anyPinnedOrCorrections whether any pinned memory or any correction exists
     */
    record Snapshot(CollectionVectors.Version vectors, boolean anyFeedback, boolean anyPinnedOrCorrections) {
    }
}
