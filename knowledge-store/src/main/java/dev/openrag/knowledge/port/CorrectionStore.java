package dev.openrag.knowledge.port;

import java.util.Collection;
import java.util.List;

/**
 * Corrections (ARCHITECTURE §4): what an agent or a person said was wrong in a chunk, or stands for a query;
 * later related searches and answers carry them. A correction that names a memory is memory's to write (it
 * ends the memory's validity: {@code MemoryStore#correct}); it is stored and listed here all the same.
 */
public interface CorrectionStore {

    /** Stores a correction; it {@code CORRECTS} the chunk it names, where that chunk exists. */
    Correction add(Correction correction, float[] embedding);

    /** A scope's corrections, newest first. */
    List<Correction> corrections(String scope);

    boolean chunkExists(String chunkId);

    /**
     * Corrections related to a search: similar to the query (at least {@code minSimilarity}, given as their score), or
     * attached to one of the result chunks; most similar first. {@code scopes} null means every scope.
     */
    List<Correction> related(Collection<String> scopes, float[] query, double minSimilarity, Collection<String> chunkIds, int limit);
}
