package dev.openrag.query.search;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code POST /api/search} body; null fields take their defaults. {@code scopes} limits the pinned
 * memories and corrections that come back with the results (absent: every scope). {@code candidates}
 * is how deep each retriever's list is in the fused modes (1-200; default
 * {@code openrag.search.candidates}); {@code expand} how many of the best documents lend their hits'
 * neighbours and their heads to the candidates (0-20, 0: off; default {@code openrag.search.expand.documents}).
 * {@code rrfK} (1-1000; default {@code openrag.search.rrf-k}) and {@code weights} (per retriever,
 * {@code vector}, {@code bm25}, {@code graph}, 0-10; defaults {@code openrag.search.weight.*}) set
 * the fusion of the hybrid modes, for cross-validating them ({@code ./openrag eval --folds}); so do
 * {@code rerankWeight} and {@code headPrior} (0-10; defaults {@code openrag.search.rerank.weight} and
 * {@code openrag.search.head-prior}) for the second stage, and {@code graphNodeSeeds} (0-10; default
 * {@code openrag.graph.node-seeds}) for graph retrieval's seeding by similar entities and operations.
 * {@code filter} keeps only documents whose metadata matches ({@link #FILTER_DOC}); {@code collections}
 * searches several collections at once ({@link #COLLECTIONS_DOC}).
 */
public record SearchRequest(String query, Integer k, String collection, String mode, Boolean rerank, Boolean explain,
                            Integer maxHops, List<String> scopes, Integer candidates, Integer expand, Integer rrfK,
                            Map<String, Double> weights, Double rerankWeight, Double headPrior, Double graphNodeSeeds,
                            @Schema(implementation = Object.class, description = FILTER_DOC) JsonNode filter,
                            @Schema(description = COLLECTIONS_DOC) @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
                            List<String> collections) {

    /** Several collections in one request, for the OpenAPI description (the rules: {@code CollectionSelection}). */
    public static final String COLLECTIONS_DOC = "Several collections searched at once instead of 'collection': a list of names, "
            + "or \"*\" (or [\"*\"]) for every collection with something ingested that the API key is granted (at most 32). "
            + "Each is searched as one collection would be and the lists are fused by reciprocal rank fusion (rrfK); every hit "
            + "names its collection. A collection the key is not granted is a 403 naming it; giving both 'collection' and "
            + "'collections' is a 400.";

    /** The filter's form, for the OpenAPI description (the rules: {@code DocumentFilters}). */
    public static final String FILTER_DOC = "Only documents whose metadata matches, applied inside every retriever. A JSON object "
            + "whose top-level keys are and-ed: equality {\"team\": \"payments\"} (an item of a list value counts); "
            + "{\"team\": {\"in\": [\"payments\", \"risk\"]}}; {\"team\": {\"not\": \"payments\"}} (documents without the key match); "
            + "{\"owner\": {\"exists\": true}}; ranges gte/gt/lte/lt on numbers or ISO-8601 dates {\"year\": {\"gte\": 2025, \"lt\": 2027}}(a list's items that are dates count, for equality on a date too); "
            + "{\"path\": {\"prefix\": \"docs/\"}}; {\"and\": [...]} and {\"or\": [...]}. Keys are caller metadata or the source fields "
            + "title, fileName, extension, mediaType, path, sourceId, created, modified, author, url, host, commit, crawlId. "
            + "Keys and string values compare exactly (case-sensitive; a prefix is text, not a pattern). A date is ISO-8601 with "
            + "a zone (2026-01-01, 2026-01-01T00:00:00Z or +02:00); a date-time without one is plain text. At most 8 levels, "
            + "64 conditions and 256 values per 'in'; and/or take non-empty objects. "
            + "An unknown operator, a wrong type or a malformed filter is a 400. A key that no document of the searched "
            + "collections has is no error: a condition on it holds for no document (not and exists:false for every one), and "
            + "the answer names such keys in 'unknownFilterKeys'.";

    /** The same request for checked collections and the memory scopes the caller may read (null: all). */
    public SearchRequest restrictedTo(List<String> checkedCollections, List<String> readableScopes) {
        boolean one = checkedCollections.size() == 1;
        return new SearchRequest(query, k, one ? checkedCollections.get(0) : null, mode, rerank, explain, maxHops, readableScopes,
                candidates, expand, rrfK, weights, rerankWeight, headPrior, graphNodeSeeds, filter,
                one ? null : List.copyOf(checkedCollections));
    }

    /** The same request for one of its collections. */
    SearchRequest in(String oneCollection) {
        return new SearchRequest(query, k, oneCollection, mode, rerank, explain, maxHops, scopes, candidates, expand, rrfK, weights,
                rerankWeight, headPrior, graphNodeSeeds, filter, null);
    }

    public SearchRequest(String query, Integer k, String collection, String mode, Boolean rerank, Boolean explain,
                         Integer maxHops, List<String> scopes, Integer candidates, Integer expand, Integer rrfK,
                         Map<String, Double> weights, Double rerankWeight, Double headPrior, Double graphNodeSeeds, JsonNode filter) {
        this(query, k, collection, mode, rerank, explain, maxHops, scopes, candidates, expand, rrfK, weights, rerankWeight, headPrior,
                graphNodeSeeds, filter, null);
    }

    public SearchRequest(String query, Integer k, String collection, String mode, Boolean rerank, Boolean explain,
                         Integer maxHops, List<String> scopes, Integer candidates, Integer expand, Integer rrfK,
                         Map<String, Double> weights, Double rerankWeight, Double headPrior, Double graphNodeSeeds) {
        this(query, k, collection, mode, rerank, explain, maxHops, scopes, candidates, expand, rrfK, weights, rerankWeight, headPrior,
                graphNodeSeeds, null);
    }

    public SearchRequest(String query, Integer k, String collection, String mode) {
        this(query, k, collection, mode, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    public SearchRequest(String query, Integer k, String collection, String mode, Boolean rerank, Boolean explain,
                         Integer maxHops, List<String> scopes) {
        this(query, k, collection, mode, rerank, explain, maxHops, scopes, null, null, null, null, null, null, null, null);
    }
}
