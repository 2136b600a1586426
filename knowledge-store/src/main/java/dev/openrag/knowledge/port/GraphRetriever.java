package dev.openrag.knowledge.port;

import java.util.List;
import java.util.Map;

import dev.openrag.knowledge.browse.ApiOperation;
import dev.openrag.knowledge.filter.DocumentFilter;

/**
 * Retrieval through the knowledge graph, seeded by entities and OpenAPI operations named in the
 * query, by the chunks most similar to the query with the entities they mention (plain questions
 * name no entity), and optionally by the entities and operations most similar to the query. From
 * the seeds' entities to the chunks that mention them (rarer entities weigh more), then NEXT
 * neighbours up to {@code maxHops} away with a decaying score.
 */
public interface GraphRetriever {

    /**
     * @param queryVector the query's embedding, to seed the graph by similarity as well as by name
     *                    (null: by name only)
     * @param nodeSeeds   what the entity or operation most similar to the query passes on (0: entities
     *                    and operations seed by name only)
     */
    default List<ScoredChunk> search(String collection, String query, float[] queryVector, int maxHops, double nodeSeeds, int limit) {
        return search(collection, query, queryVector, maxHops, nodeSeeds, limit, (DocumentFilter) null);
    }

    /**
     * As above, within the documents {@code filter} selects (null: every document), applied inside
     * the query to every seed, every chunk an entity leads to and every NEXT step, so the limit
     * counts only matching chunks and a selective filter still gets its best ones.
     */
    List<ScoredChunk> search(String collection, String query, float[] queryVector, int maxHops, double nodeSeeds, int limit,
                             DocumentFilter filter);

    /** The OpenAPI operations (with examples and related entities) the given chunks present, by chunk id. */
    Map<String, ApiOperation> operations(List<String> chunkIds);
}
