package dev.openrag.knowledge.port;

import java.util.List;
import java.util.Map;

import dev.openrag.knowledge.browse.ApiOperation;

/**
 * Retrieval through the knowledge graph: chunks that mention entities named in the query (rarer
 * entities weigh more), then their NEXT neighbours up to {@code maxHops} away with a decaying score;
 * OpenAPI operations named in the query (by operation id) bring their chunks too.
 */
public interface GraphRetriever {

    List<ScoredChunk> search(String collection, String query, int maxHops, int limit);

    /** The OpenAPI operations (with examples and related entities) the given chunks present, by chunk id. */
    Map<String, ApiOperation> operations(List<String> chunkIds);
}
