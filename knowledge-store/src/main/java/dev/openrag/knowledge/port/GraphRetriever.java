package dev.openrag.knowledge.port;

import java.util.List;

/**
 * Retrieval through the knowledge graph: chunks that mention entities named in the query (rarer
 * entities weigh more), then their NEXT neighbours up to {@code maxHops} away with a decaying score.
 */
public interface GraphRetriever {

    List<ScoredChunk> search(String collection, String query, int maxHops, int limit);
}
