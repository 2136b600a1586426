package dev.openrag.query.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.openrag.knowledge.browse.ApiOperation;
import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.knowledge.filter.DocumentFilters;
import dev.openrag.knowledge.port.ChunkLookup;
import dev.openrag.knowledge.port.DocumentMetadataStore;
import dev.openrag.knowledge.port.DocumentTexts;
import dev.openrag.knowledge.port.CorrectionStore;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.GraphRetriever;
import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.knowledge.port.MetadataFacets;
import dev.openrag.knowledge.port.Reranker;
import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.knowledge.port.SearchState;
import dev.openrag.knowledge.port.SummaryIndex;
import dev.openrag.knowledge.port.VectorIndex;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.tracing.Tracing;
import dev.openrag.memory.MemoryStore;
import dev.openrag.query.cite.Citation;
import dev.openrag.query.cite.Span;
import dev.openrag.query.cite.Spans;
import dev.openrag.schemas.CollectionNames;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/**
 * Hybrid retrieval: vector top-N and BM25 top-N run in parallel and are fused by reciprocal rank
 * fusion. A retriever whose store is down is left out and named in {@code degraded}; only when
 * every retriever fails is the search unavailable (503). {@code summary} ranks the chunks of the
 * sections whose summaries match best; {@code hybrid_expanded} adds a boost from the summaries to
 * hybrid; {@code automatic} picks per query ({@link QueryRouter}) and says why in explain. The
 * second stage ({@code rerank}) adds the {@link Reranker}'s score and, in the fused modes, the
 * document-head prior ({@link RankFusion#documentHeads}). Before it, in the fused modes, the best
 * document's neighbouring chunks and head join the candidates ({@link DocumentExpansion}).
 */
@ApplicationScoped
public class SearchService {

    private static final Logger LOG = Logger.getLogger(SearchService.class);
    private static final Set<String> MODES = Set.of("hybrid", "vector", "bm25", "graph", "summary", "hybrid_expanded", "automatic");
    private static final String MODE_NAMES = "hybrid, vector, bm25, graph, summary, hybrid_expanded or automatic";
    private static final int MEMORY_LIMIT = 5;
    static final String VECTOR = "vector";
    static final String BM25 = "bm25";
    static final String GRAPH = "graph";
    static final String SUMMARY = "summary";
    static final String HYBRID_EXPANDED = "hybrid_expanded";
    /**
     * Span attributes: {@code search.embedQuery} answered from {@link QueryVectors}, {@code search.bm25}'s chunks all from
     * the in-memory copy; why a step did no work.
     */
    static final AttributeKey<Boolean> CACHE_HIT = AttributeKey.booleanKey("openrag.cache.hit");
    static final AttributeKey<String> SKIPPED = AttributeKey.stringKey("openrag.skipped");

    private final Embedder embedder;
    private final VectorIndex vectors;
    private final LexicalIndex lexical;
    private final MemoryStore memories;
    private final SearchState state;
    private final GraphRetriever graph;
    private final FeedbackRanking feedback;
    private final double memoryMinSimilarity;
    private final int candidates;
    private final int rrfK;
    private final Map<String, Double> weights;
    private final SummaryIndex summaries;
    private final int summarySections;
    private final double summaryBoost;
    private final QueryRouter router;
    private final Reranker reranker;
    private final boolean rerankByDefault;
    private final double rerankWeight;
    private final double headPrior;
    private final int expandDocuments;
    private final double expandRatio;
    private final ChunkLookup chunks;
    private final double graphNodeSeeds;
    /** Retrievers and lookups run here, each in its own span of the search's trace (the context goes along with each task). */
    private final ExecutorService retrievers = Context.taskWrapping(Executors.newVirtualThreadPerTaskExecutor());
    private final Tracer tracer;
    /**
     * How long a search waits for its engines in all ({@code openrag.search.read-timeout}, 2 s): a frozen engine (a long GC
     * pause, a stalled VM) accepts connections and answers nothing, and Neo4j's driver has no read timeout of its own. Past
     * it, a retriever is left out and named in {@code degraded} as a failed one is, and each later lookup (feedback,
     * memories, expansion) gets at least {@link #LATE_WAIT_NANOS}; only when no retriever answered is it a 503.
     */
    private final long readTimeoutNanos;
    /** Documents' texts and their chunks' places, for the hits' exact spans. */
    private final DocumentTexts texts;
    private final QueryVectors queryVectors;
    /** Injected into the field: documents' metadata, for filters that a retriever cannot translate itself (the hits' is read with their places). */
    @Inject
    DocumentMetadataStore metadata;
    /** Injected into the field: the corrections related to a search, beside memory's pinned memories. */
    @Inject
    CorrectionStore corrections;
    /** Injected into the field: the metadata keys a collection's documents have, to name a filter's unknown ones. */
    @Inject
    MetadataFacets facets;
    /** What the results are about, for the pinned memories attached to those documents and entities. */
    @Inject
    dev.openrag.knowledge.port.ChunkSubjects chunkSubjects;
    private static final long LATE_WAIT_NANOS = 100_000_000L;

    public SearchService(Embedder embedder, VectorIndex vectors, LexicalIndex lexical, MemoryStore memories, SearchState state,
                         @ConfigProperty(name = "openrag.search.memory-min-similarity", defaultValue = "0.85") double memoryMinSimilarity,
                         @ConfigProperty(name = "openrag.search.candidates", defaultValue = "100") int candidates,
                         @ConfigProperty(name = "openrag.search.rrf-k", defaultValue = "20") int rrfK,
                         @ConfigProperty(name = "openrag.search.weight.vector", defaultValue = "1.0") double vectorWeight,
                         @ConfigProperty(name = "openrag.search.weight.bm25", defaultValue = "1.0") double bm25Weight,
                         @ConfigProperty(name = "openrag.search.weight.graph", defaultValue = "0.0") double graphWeight,
                         @ConfigProperty(name = "openrag.search.summary.sections", defaultValue = "10") int summarySections,
                         @ConfigProperty(name = "openrag.search.summary.boost", defaultValue = "0.3") double summaryBoost,
                         @ConfigProperty(name = "openrag.search.automatic.bm25-weight", defaultValue = "1.5") double automaticBm25Weight,
                         @ConfigProperty(name = "openrag.search.rerank.default", defaultValue = "true") boolean rerankByDefault,
                         @ConfigProperty(name = "openrag.search.rerank.weight", defaultValue = "0.3") double rerankWeight,
                         @ConfigProperty(name = "openrag.search.head-prior", defaultValue = "0.3") double headPrior,
                         @ConfigProperty(name = "openrag.search.expand.documents", defaultValue = "1") int expandDocuments,
                         @ConfigProperty(name = "openrag.search.expand.ratio", defaultValue = "0.5") double expandRatio,
                         @ConfigProperty(name = "openrag.graph.node-seeds", defaultValue = "0") double graphNodeSeeds,
                         @ConfigProperty(name = "openrag.search.read-timeout", defaultValue = "PT2S") java.time.Duration readTimeout,
                         GraphRetriever graph, FeedbackRanking feedback, SummaryIndex summaries, Reranker reranker, ChunkLookup chunks,
                         DocumentTexts texts, Tracer tracer, QueryVectors queryVectors) {
        this.queryVectors = queryVectors;
        this.texts = texts;
        this.tracer = tracer;
        this.expandDocuments = expandDocuments;
        this.expandRatio = expandRatio;
        this.chunks = chunks;
        this.embedder = embedder;
        this.vectors = vectors;
        this.lexical = lexical;
        this.memories = memories;
        this.state = state;
        this.graph = graph;
        this.feedback = feedback;
        this.memoryMinSimilarity = memoryMinSimilarity;
        this.candidates = candidates;
        this.rrfK = rrfK;
        this.weights = Map.of(VECTOR, vectorWeight, BM25, bm25Weight, GRAPH, graphWeight);
        this.summaries = summaries;
        this.summarySections = summarySections;
        this.summaryBoost = summaryBoost;
        this.router = new QueryRouter(automaticBm25Weight);
        this.reranker = reranker;
        this.rerankByDefault = rerankByDefault;
        this.rerankWeight = rerankWeight;
        this.headPrior = headPrior;
        if (!(graphNodeSeeds >= 0 && graphNodeSeeds <= 10)) {
            throw new IllegalArgumentException("openrag.graph.node-seeds must be between 0 and 10, got " + graphNodeSeeds);
        }
        this.graphNodeSeeds = graphNodeSeeds;
        this.readTimeoutNanos = readTimeout.toNanos();
    }

    @PreDestroy
    void close() {
        retrievers.shutdown();
    }

    /** A search, as one span ({@code search}) with one child per retriever and step ({@code search.vector}, {@code search.rerank}, …). */
    public SearchResponse search(SearchRequest request) {
        return searchWithCitations(request).response();
    }

    /** A search's answer and its hits' citations by chunk id (an answer citing its hits cuts its spans from them, reading nothing again). */
    public record Searched(SearchResponse response, Map<String, Citation> citations) {
    }

    /** {@link #search}, with the citations its hits' spans are. */
    public Searched searchWithCitations(SearchRequest request) {
        return Tracing.inSpan(tracer, "search", () -> searchTraced(request));
    }

    private Searched searchTraced(SearchRequest request) {
        if (request.collections() != null) {
            return request.collections().size() == 1 ? searchTraced(request.in(request.collections().get(0)))
                    : searchAcross(request, request.collections());
        }
        long started = System.nanoTime();
        String query = request.query() == null ? "" : request.query().strip();
        if (query.isEmpty()) {
            throw ApiException.badRequest("field 'query' is required and must not be blank");
        }
        int k = request.k() == null ? 10 : request.k();
        if (k < 1 || k > 100) {
            throw ApiException.badRequest("field 'k' must be between 1 and 100, got " + k);
        }
        String collection;
        try {
            collection = CollectionNames.orDefault(request.collection());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        String mode = request.mode() == null || request.mode().isBlank() ? "hybrid" : request.mode();
        if (!MODES.contains(mode)) {
            throw ApiException.badRequest("unknown mode '" + mode + "'; use " + MODE_NAMES);
        }
        String requestedMode = mode;
        QueryRouter.Route route = null;
        Map<String, Double> fusionWeights = weights;
        if (request.weights() != null && !request.weights().isEmpty()) {
            fusionWeights = new HashMap<>(weights);
            for (Map.Entry<String, Double> weight : request.weights().entrySet()) {
                if (!weights.containsKey(weight.getKey())) {
                    throw ApiException.badRequest("field 'weights' names an unknown retriever '" + weight.getKey() + "'; use vector, bm25 or graph");
                }
                if (weight.getValue() == null || !(weight.getValue() >= 0 && weight.getValue() <= 10)) {
                    throw ApiException.badRequest("field 'weights." + weight.getKey() + "' must be between 0 and 10, got " + weight.getValue());
                }
                fusionWeights.put(weight.getKey(), weight.getValue());
            }
        }
        int fusionK = request.rrfK() == null ? rrfK : request.rrfK();
        if (fusionK < 1 || fusionK > 1000) {
            throw ApiException.badRequest("field 'rrfK' must be between 1 and 1000, got " + fusionK);
        }
        double rerankBy = secondStage(request.rerankWeight(), rerankWeight, "rerankWeight");
        double headBy = secondStage(request.headPrior(), headPrior, "headPrior");
        double nodeSeeds = secondStage(request.graphNodeSeeds(), graphNodeSeeds, "graphNodeSeeds");
        if (mode.equals("automatic")) {
            route = router.route(query);
            mode = route.mode();
            if (route.weights() != null) {
                fusionWeights = new HashMap<>(fusionWeights);
                fusionWeights.putAll(route.weights());
            }
        }
        int maxHops = request.maxHops() == null ? 1 : request.maxHops();
        if (maxHops < 0 || maxHops > 3) {
            throw ApiException.badRequest("field 'maxHops' must be between 0 and 3, got " + maxHops);
        }
        boolean explain = Boolean.TRUE.equals(request.explain());
        boolean hybrid = mode.equals("hybrid") || mode.equals(HYBRID_EXPANDED);
        int pool = request.candidates() == null ? candidates : request.candidates();
        if (pool < 1 || pool > 200) {
            throw ApiException.badRequest("field 'candidates' must be between 1 and 200, got " + pool);
        }
        int depth = hybrid ? Math.max(pool, k) : k;
        DocumentFilter filter;
        try {
            filter = DocumentFilters.parse(request.filter());
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(e.getMessage());
        }

        // the query vector serves the vector retriever, memories and feedback: embedded once, and
        // only when one of them needs it (a BM25 search on an install without memories never does)
        Map<String, Double> timings = new ConcurrentHashMap<>();
        // with explain: which steps a cache answered and which were skipped, and why (their spans say the same)
        Map<String, String> cached = new ConcurrentHashMap<>();
        Map<String, String> skipped = new ConcurrentHashMap<>();
        Supplier<float[]> queryVector = once(() -> timed(timings, "embedQuery", () -> {
            QueryVectors.Lookup lookup = queryVectors.embed(embedder, query);
            io.opentelemetry.api.trace.Span.current().setAttribute(CACHE_HIT, lookup.cached());
            cached.put("embedQuery", lookup.cached() ? "hit" : "miss");
            return lookup.vector();
        }));
        // the collection's vector version and whether the feedback and memory lookups after ranking
        // are needed at all: one round trip, asked now, beside the retrievers, off the search's path
        CompletableFuture<SearchState.Snapshot> stores = CompletableFuture.supplyAsync(() -> state.read(collection, request.scopes()), retrievers);
        // bounded where they are read, after the retrievers: a store that does not answer in time means "skip", named in degraded
        CompletableFuture<SearchState.Snapshot> storesRead = stores;
        CompletableFuture<Boolean> anyFeedback = CompletableFuture.supplyAsync(() -> storesRead.join().anyFeedback(), retrievers);
        // the documents a filter selects, for the retrievers that search within them (vectors, summaries);
        // BM25 and graph apply the filter in their own queries. Read beside the embedding, off the search's path.
        boolean selects = filter != null && (hybrid || mode.equals(VECTOR) || mode.equals(SUMMARY));
        CompletableFuture<Set<String>> selected = !selects ? CompletableFuture.completedFuture(null)
                : CompletableFuture.supplyAsync(() -> timed(timings, "filter", () -> metadata.matching(collection, filter)), retrievers);
        // the filter's keys that no document has: said in the answer, read beside the retrievers
        CompletableFuture<Set<String>> knownKeys = filter == null ? null
                : CompletableFuture.supplyAsync(() -> facets.held(collection, DocumentFilters.keys(filter)), retrievers);
        Map<String, CompletableFuture<List<ScoredChunk>>> running = new LinkedHashMap<>();
        if (mode.equals(SUMMARY)) {
            running.put(SUMMARY, retrieve(() -> {
                float[] vector = queryVector.get();
                // with a filter, the best sections of the selected documents: however selective, never none
                Set<String> within = selected.join();
                return timed(timings, SUMMARY, () -> summaries.searchBySummary(collection, vector, summarySections, depth, within));
            }));
        }
        if (hybrid || mode.equals(VECTOR)) {
            running.put(VECTOR, retrieve(() -> {
                VectorIndex.PreparedSearch search = vectors.prepareSearch(collection, () -> stores.join().vectors(), selected.join());
                float[] vector = queryVector.get();
                return timed(timings, VECTOR, () -> search.nearest(vector, depth));
            }));
        }
        if (hybrid && fusionWeights.get(GRAPH) > 0 || mode.equals(GRAPH)) {
            running.put(GRAPH, retrieve(() -> {
                float[] vector = queryVector.get();
                return timed(timings, GRAPH, () -> graph.search(collection, query, vector, maxHops, nodeSeeds, depth, filter));
            }));
        }
        long deadline = started + readTimeoutNanos;
        if (hybrid || mode.equals(BM25)) {
            // fused with the vector retriever's hits over a copy of the collection's chunks held in memory: BM25 brings back
            // only its hits' ids and scores, and their chunks come from that copy (no hit's text travels from OpenSearch)
            boolean chunksHeld = hybrid && chunks.holdsCopy(collection);
            running.put(BM25, retrieve(() -> timed(timings, BM25, () -> chunksHeld
                    ? withChunks(collection, lexical.searchWithoutText(collection, query, depth, filter), stores, cached)
                    : lexical.search(collection, query, depth, filter))));
        }
        Map<String, List<ScoredChunk>> hits = new LinkedHashMap<>();
        // steps past the deadline may still add to it from their own threads: synchronized, and copied once at the end
        List<String> degraded = java.util.Collections.synchronizedList(new ArrayList<>());
        running.forEach((retriever, future) -> {
            try {
                hits.put(retriever, within(future, deadline));
            } catch (RuntimeException e) {
                LOG.warnf("%s retriever failed, answering without it: %s", retriever, rootMessage(e));
                degraded.add(switch (retriever) {
                    case BM25 -> "opensearch";
                    case GRAPH -> "graph";
                    case SUMMARY -> "summaries";
                    default -> "vectors";
                });
            }
        });
        if (hits.isEmpty()) {
            throw new ApiException(503, "unavailable", "no retriever could answer: " + String.join(", ", degraded) + " unreachable");
        }
        if (hits.values().stream().allMatch(List::isEmpty)
                && !orElse(CompletableFuture.supplyAsync(() -> collectionExists(collection), retrievers), deadline, true)) {
            throw ApiException.badRequest("unknown collection '" + collection + "': nothing has been ingested into it");
        }
        long fusing = System.nanoTime();
        // a single retriever keeps its own order, whatever its fusion weight
        List<RankFusion.Fused> ranked = RankFusion.fuse(hits, hybrid ? fusionWeights : Map.of(mode, 1.0), fusionK);
        timings.put("fusion", Math.round((System.nanoTime() - fusing) / 1e4) / 100.0);
        if (mode.equals(HYBRID_EXPANDED) && !ranked.isEmpty()) {
            List<RankFusion.Fused> candidatesToBoost = ranked;
            ranked = timed(timings, SUMMARY, () -> orElse(CompletableFuture.supplyAsync(
                    () -> expandWithSummaries(candidatesToBoost, queryVector, degraded), retrievers), deadline, candidatesToBoost, "summaries", degraded));
        }
        int expand = request.expand() == null ? expandDocuments : request.expand();
        if (expand < 0 || expand > 20) {
            throw ApiException.badRequest("field 'expand' must be between 0 and 20, got " + expand);
        }
        if (hybrid && expand > 0 && !ranked.isEmpty()) {
            List<RankFusion.Fused> candidatesToExpand = ranked;
            ranked = timed(timings, DocumentExpansion.SIGNAL, () -> orElse(CompletableFuture.supplyAsync(
                    () -> expand(collection, candidatesToExpand, expand, degraded), retrievers), deadline, candidatesToExpand, "expand", degraded));
        }
        boolean rerank = request.rerank() == null ? rerankByDefault : request.rerank();
        if (rerank && !ranked.isEmpty()) {
            List<RankFusion.Fused> candidatesToRerank = ranked;
            ranked = timed(timings, "rerank", () -> rerank(query, candidatesToRerank, rerankBy));
        }
        // part of the second stage, in fused modes only: one retriever's raw scores (BM25's above
        // all) are no basis for a document's best
        if (rerank && hybrid && headBy > 0 && !ranked.isEmpty()) {
            List<RankFusion.Fused> candidatesToLift = ranked;
            ranked = timed(timings, "headPrior",
                    () -> RankFusion.rescore(candidatesToLift, RankFusion.documentHeads(candidatesToLift), headBy, "head"));
        }
        boolean combinedScore = hybrid || rerank;
        List<SearchResponse.Result> top = ranked.stream().limit(k)
                .map(hit -> new SearchResponse.Result(hit.chunk().chunkId(), hit.chunk().documentId(), hit.chunk().chunkIndex(),
                        hit.chunk().title(), hit.chunk().sourceUri(), hit.chunk().text(), hit.chunk().context(),
                        combinedScore ? hit.score() : hit.scores().values().iterator().next(),
                        hit.ranks(), explain ? hit.scores() : null, null, null, null))
                .toList();
        List<SearchResponse.Result> fused = mode.equals(GRAPH) && !top.isEmpty()
                ? timed(timings, "operations", () -> withOperations(collection, top, degraded)) : top;
        // memories need only the result ids, feedback re-orders the results: the two run side by side
        List<String> resultIds = fused.stream().map(SearchResponse.Result::chunkId).toList();
        List<String> memoriesDegraded = java.util.Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<RelatedKnowledge> relatedLookup = CompletableFuture.supplyAsync(() -> timed(timings, "memories",
                () -> related(request.scopes(), stores, queryVector, resultIds, memoriesDegraded, skipped)), retrievers);
        List<Spans.Hit> toCite = fused.stream()
                .map(result -> new Spans.Hit(result.chunkId(), result.documentId(), result.chunkIndex(), result.text())).toList();
        // the hits' spans and their documents' metadata come from one read (the places and the metadata in one round trip)
        CompletableFuture<Map<String, Map<String, Object>>> metadataRead = new CompletableFuture<>();
        CompletableFuture<HitDetails> detailing = CompletableFuture.supplyAsync(() -> timed(timings, "spans",
                () -> details(collection, toCite, degraded, metadataRead)), retrievers);
        List<SearchResponse.Result> reordered = timed(timings, "feedback", () -> orElse(CompletableFuture.supplyAsync(
                () -> feedback.apply(fused, anyFeedback, queryVector, explain, degraded), retrievers), deadline, fused, "feedback", degraded));
        HitDetails details = orElse(detailing, deadline, null, "spans", degraded);
        if (details == null) {
            // the spans are late: the metadata, read with the places before any whole text, may still be here
            Map<String, Map<String, Object>> metadata = metadataRead.getNow(null);
            if (metadata == null) {
                degraded.add("metadata");
            }
            details = metadata == null ? HitDetails.NONE : new HitDetails(Map.of(), metadata);
        }
        Map<String, Citation> citations = details.citations();
        Map<String, Map<String, Object>> documentMetadata = details.metadata();
        // a hit without a citation of its own says why: the texts did not answer in time (a missing text has its own)
        Citation unavailable = Citation.withoutText(Span.without(null, false, Spans.TEXTS_UNAVAILABLE));
        Map<String, Citation> cited = new HashMap<>();
        List<SearchResponse.Result> results = reordered.stream().map(result -> {
            Citation citation = citations.getOrDefault(result.chunkId(), unavailable);
            cited.put(result.chunkId(), citation);
            return result.withMetadata(collection, documentMetadata.getOrDefault(result.documentId(), Map.of()))
                    .withSpans(List.of(citation.span()));
        }).toList();
        RelatedKnowledge related = orElse(relatedLookup, deadline, RelatedKnowledge.NONE, "memories", memoriesDegraded);
        degraded.addAll(List.copyOf(memoriesDegraded));
        Set<String> known = knownKeys == null ? null : heldKeys(knownKeys, deadline, degraded);
        List<String> named = List.copyOf(new java.util.LinkedHashSet<>(List.copyOf(degraded)));
        List<String> unknownKeys = known == null ? null
                : DocumentFilters.keys(filter).stream().filter(key -> !known.contains(key)).toList();
        return new Searched(new SearchResponse(results, related.memories().stream()
                .map(hit -> new SearchResponse.MemoryNote(hit.memory().id(), hit.memory().scope(), hit.memory().text(),
                        hit.memory().tags(), hit.score()))
                .toList(), related.corrections(), (System.nanoTime() - started) / 1_000_000, requestedMode,
                named.isEmpty() ? null : named, explain ? new TreeMap<>(timings) : null,
                route != null && explain ? new SearchResponse.Route(route.mode(), route.weights(), route.reason()) : null,
                explain && !cached.isEmpty() ? new TreeMap<>(cached) : null,
                explain && !skipped.isEmpty() ? new TreeMap<>(skipped) : null,
                unknownKeys == null || unknownKeys.isEmpty() ? null : unknownKeys, null), cited);
    }

    /**
     * A search of several collections: each searched as one is (its own retrievers, fusion and second
     * stage), side by side, and their lists fused by reciprocal rank fusion as the retrievers' are
     * ({@link RankFusion#reciprocal}), so no collection's scores need calibrating against another's.
     * Memories and corrections are those of any of the searches; a filter key is unknown when no
     * searched collection knows it.
     */
    private Searched searchAcross(SearchRequest request, List<String> collections) {
        long started = System.nanoTime();
        int fusionK = request.rrfK() == null ? rrfK : request.rrfK();
        Map<String, CompletableFuture<Searched>> running = new LinkedHashMap<>();
        for (String collection : collections) {
            running.put(collection, CompletableFuture.supplyAsync(() -> searchTraced(request.in(collection)), retrievers));
        }
        Map<String, List<Placed>> lists = new LinkedHashMap<>();
        Map<String, Citation> citations = new HashMap<>();
        java.util.LinkedHashSet<SearchResponse.MemoryNote> memoryNotes = new java.util.LinkedHashSet<>();
        java.util.LinkedHashSet<dev.openrag.knowledge.port.Correction> corrections = new java.util.LinkedHashSet<>();
        java.util.LinkedHashSet<String> degraded = new java.util.LinkedHashSet<>();
        Map<String, Double> timings = new TreeMap<>();
        Set<String> unknownEverywhere = null;
        String mode = request.mode() == null || request.mode().isBlank() ? "hybrid" : request.mode();
        for (Map.Entry<String, CompletableFuture<Searched>> each : running.entrySet()) {
            Searched searched;
            try {
                searched = each.getValue().join();
            } catch (java.util.concurrent.CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
            SearchResponse response = searched.response();
            List<Placed> placed = new ArrayList<>();
            for (SearchResponse.Result result : response.results()) {
                placed.add(new Placed(result, placed.size() + 1));
            }
            lists.put(each.getKey(), placed);
            citations.putAll(searched.citations()); // chunk ids name their collection
            memoryNotes.addAll(response.memories());
            corrections.addAll(response.corrections());
            if (response.degraded() != null) {
                degraded.addAll(response.degraded());
            }
            if (response.timings() != null) {
                response.timings().forEach((step, ms) -> timings.merge(step, ms, Math::max)); // side by side: the slowest
            }
            Set<String> unknown = response.unknownFilterKeys() == null ? Set.of() : Set.copyOf(response.unknownFilterKeys());
            if (unknownEverywhere == null) {
                unknownEverywhere = new java.util.TreeSet<>(unknown);
            } else {
                unknownEverywhere.retainAll(unknown);
            }
        }
        int k = request.k() == null ? 10 : request.k();
        List<SearchResponse.Result> results = RankFusion.reciprocal(lists, Map.of(), fusionK, (Placed hit) -> hit.result().chunkId(),
                        Placed::rank).stream()
                .limit(k).map(hit -> hit.item().result().withScore(hit.score())).toList();
        boolean explain = Boolean.TRUE.equals(request.explain());
        return new Searched(new SearchResponse(results, List.copyOf(memoryNotes), List.copyOf(corrections),
                (System.nanoTime() - started) / 1_000_000, mode, degraded.isEmpty() ? null : List.copyOf(degraded),
                explain ? timings : null, null, null, null,
                unknownEverywhere == null || unknownEverywhere.isEmpty() ? null : List.copyOf(unknownEverywhere),
                List.copyOf(collections)), citations);
    }

    /** A hit of one collection's list and its rank there. */
    private record Placed(SearchResponse.Result result, int rank) {
    }

    /**
     * hybrid_expanded: fused scores, normalised to the best one, plus {@code boost} times the best
     * similarity between the query and a summary of the chunk's sections or document.
     */
    private List<RankFusion.Fused> expandWithSummaries(List<RankFusion.Fused> ranked, Supplier<float[]> queryVector,
                                                       List<String> degraded) {
        Map<String, Double> similarity;
        try {
            similarity = summaries.summarySimilarity(ranked.stream().map(hit -> hit.chunk().chunkId()).toList(), queryVector.get());
        } catch (RuntimeException e) {
            LOG.warnf("summaries unavailable, answering with plain hybrid: %s", e.getMessage());
            degraded.add("summaries");
            return ranked;
        }
        return RankFusion.rescore(ranked, similarity, summaryBoost, SUMMARY);
    }

    /** {@link DocumentExpansion}; without it when the chunk store cannot answer (named in {@code degraded}). */
    private List<RankFusion.Fused> expand(String collection, List<RankFusion.Fused> ranked, int documents, List<String> degraded) {
        Map<ChunkLookup.ChunkKey, Double> plan = DocumentExpansion.plan(ranked, documents, expandRatio);
        try {
            return DocumentExpansion.expand(ranked, plan, plan.isEmpty() ? List.of() : chunks.chunks(collection, plan.keySet()));
        } catch (RuntimeException e) {
            LOG.warnf("document expansion unavailable for collection %s: %s", collection, rootMessage(e));
            degraded.add("expand");
            return ranked;
        }
    }

    /** A second-stage weight of the request, else the configured one; 0-10. */
    private static double secondStage(Double requested, double configured, String field) {
        double weight = requested == null ? configured : requested;
        if (!(weight >= 0 && weight <= 10)) {
            throw ApiException.badRequest("field '" + field + "' must be between 0 and 10, got " + weight);
        }
        return weight;
    }

    /**
     * The second stage: every candidate's score, divided by the best one, plus {@code weight} times
     * the reranker's score in [0, 1] ({@code scores.rerank} with explain).
     */
    private List<RankFusion.Fused> rerank(String query, List<RankFusion.Fused> ranked, double weight) {
        List<Double> scores = reranker.score(query, ranked.stream().map(RankFusion.Fused::chunk).toList());
        Map<String, Double> byChunk = new HashMap<>();
        for (int i = 0; i < ranked.size(); i++) {
            byChunk.put(ranked.get(i).chunk().chunkId(), scores.get(i));
        }
        return RankFusion.rescore(ranked, byChunk, weight, "rerank");
    }

    /** Graph mode shows, for hits that present an OpenAPI operation, the operation with its examples and entities. */
    private List<SearchResponse.Result> withOperations(String collection, List<SearchResponse.Result> results, List<String> degraded) {
        try {
            Map<String, ApiOperation> operations = graph.operations(results.stream().map(SearchResponse.Result::chunkId).toList());
            return results.stream().map(result -> result.withOperation(operations.get(result.chunkId()))).toList();
        } catch (RuntimeException e) {
            LOG.warnf("operations of collection %s unavailable: %s", collection, e.getMessage());
            degraded.add("graph");
            return results;
        }
    }

    /**
     * BM25's hits without their text ({@link LexicalIndex#searchWithoutText}) made whole: each chunk from the copy held in
     * memory where that copy is the collection at the version this search read, the same chunk the vector retriever
     * answers from; the rest (the copy behind a write, or lacking the chunk) from OpenSearch in one more read, as a
     * search with text would have given them. A hit whose chunk neither has (deleted meanwhile) is left out. With explain,
     * {@code cache.bm25} says "hit" where the copy had every chunk, "miss" where some were read (as its span's
     * {@link #CACHE_HIT}).
     */
    private List<ScoredChunk> withChunks(String collection, List<ScoredChunk> hits, CompletableFuture<SearchState.Snapshot> stores,
                                         Map<String, String> cached) {
        Map<String, IndexedChunk> found = new HashMap<>();
        SearchState.Snapshot held = readyWithin(stores, LATE_WAIT_NANOS); // read beside BM25: answered by now but for a slow Neo4j
        List<IndexedChunk> fromCopy = held == null ? null : chunks.heldChunks(collection, held.vectors(),
                hits.stream().map(hit -> new ChunkLookup.ChunkKey(hit.chunk().documentId(), hit.chunk().chunkIndex())).toList());
        if (fromCopy != null) {
            fromCopy.forEach(chunk -> found.put(chunk.chunkId(), chunk));
        }
        List<String> missing = hits.stream().map(hit -> hit.chunk().chunkId()).filter(id -> !found.containsKey(id)).toList();
        if (!missing.isEmpty()) {
            lexical.chunks(collection, missing).forEach(chunk -> found.put(chunk.chunkId(), chunk));
        }
        io.opentelemetry.api.trace.Span.current().setAttribute(CACHE_HIT, missing.isEmpty());
        cached.put(BM25, missing.isEmpty() ? "hit" : "miss");
        List<ScoredChunk> whole = new ArrayList<>(hits.size());
        for (ScoredChunk hit : hits) {
            IndexedChunk chunk = found.get(hit.chunk().chunkId());
            if (chunk != null) {
                whole.add(new ScoredChunk(chunk, hit.rank(), hit.score(), hit.signals()));
            }
        }
        return whole;
    }

    /** The future's value if it comes within {@code nanos}, else null (failed or late; the future itself is left running). */
    private static <T> T readyWithin(CompletableFuture<T> future, long nanos) {
        try {
            return future.get(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException | java.util.concurrent.CancellationException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The hits' citations by chunk id and their documents' metadata by document id. */
    private record HitDetails(Map<String, Citation> citations, Map<String, Map<String, Object>> metadata) {
        static final HitDetails NONE = new HitDetails(Map.of(), Map.of());
    }

    /**
     * The hits' spans and metadata from one read of their places ({@link DocumentTexts#places}): a store that does not
     * answer costs both (named in {@code degraded}); a whole text that a hit without a place needs, failing or late, only
     * the spans ({@code metadataRead} has the metadata as soon as the places are read).
     */
    private HitDetails details(String collection, List<Spans.Hit> hits, List<String> degraded,
                               CompletableFuture<Map<String, Map<String, Object>>> metadataRead) {
        DocumentTexts.Places found;
        try {
            found = Spans.places(texts, collection, hits);
            metadataRead.complete(found.metadata()); // for a search whose deadline comes while whole texts are read
        } catch (RuntimeException e) {
            LOG.warnf("documents' places and metadata unavailable, answering without spans and metadata: %s", e.getMessage());
            degraded.add("spans");
            degraded.add("metadata");
            return HitDetails.NONE;
        }
        try {
            return new HitDetails(Spans.cite(texts, collection, hits, found), found.metadata());
        } catch (RuntimeException e) {
            LOG.warnf("documents' texts unavailable, answering without spans: %s", e.getMessage());
            degraded.add("spans");
            return new HitDetails(Map.of(), found.metadata());
        }
    }

    /** Pinned memories and corrections for the results; Neo4j being down only costs this section. */
    private RelatedKnowledge related(List<String> scopes, CompletableFuture<SearchState.Snapshot> stores, Supplier<float[]> queryVector,
                                     List<String> chunkIds, List<String> degraded, Map<String, String> skipped) {
        try {
            if (scopes != null && scopes.isEmpty()) {
                return skip(skipped, "memories", "the caller's key reaches no memory scope");
            }
            // the existence checks (live, beside the retrievers) spare the lookups that could return nothing
            SearchState.Snapshot held = stores.join();
            if (!held.anyPinnedOrCorrections()) {
                return skip(skipped, "memories", scopes == null ? "no pinned memory or correction in any scope"
                        : "no pinned memory or correction in the searched scopes");
            }
            float[] vector = queryVector.get();
            // corrections beside the pinned memories; the results' subjects only where a pinned memory is about something
            CompletableFuture<List<dev.openrag.knowledge.port.Correction>> related = !held.anyCorrections()
                    ? CompletableFuture.completedFuture(List.of())
                    : CompletableFuture.supplyAsync(() -> corrections.related(scopes, vector, memoryMinSimilarity, chunkIds, MEMORY_LIMIT),
                            retrievers);
            List<dev.openrag.memory.MemoryHit> pinned = !held.anyPinned() ? List.of()
                    : memories.relatedPinned(scopes, vector, memoryMinSimilarity,
                            held.anyPinnedAbout() ? chunkSubjects.of(chunkIds) : Set.of(), MEMORY_LIMIT, System.currentTimeMillis());
            return new RelatedKnowledge(pinned, related.join());
        } catch (RuntimeException e) {
            LOG.warnf("memories and corrections unavailable, answering without them: %s", rootMessage(e));
            degraded.add("memories");
            return RelatedKnowledge.NONE;
        }
    }

    /** A step left out because it cannot change the answer: said in explain ({@code skipped}) and on its span. */
    private static RelatedKnowledge skip(Map<String, String> skipped, String step, String reason) {
        skipped.put(step, reason);
        io.opentelemetry.api.trace.Span.current().setAttribute(SKIPPED, reason);
        return RelatedKnowledge.NONE;
    }

    /** The message of what went wrong, not of the {@link java.util.concurrent.CompletionException} around it. */
    static String rootMessage(RuntimeException e) {
        return e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
    }

    /** A value computed by the first caller; later and concurrent callers get the same one. */
    private static <T> Supplier<T> once(Supplier<T> compute) {
        AtomicReference<CompletableFuture<T>> value = new AtomicReference<>();
        return () -> {
            CompletableFuture<T> mine = new CompletableFuture<>();
            if (value.compareAndSet(null, mine)) {
                try {
                    mine.complete(compute.get());
                } catch (RuntimeException e) {
                    mine.completeExceptionally(e);
                }
            }
            return value.get().join();
        };
    }

    /** Runs a step and records its milliseconds (explain shows where a search's time went). */
    /** A step of the search: its time goes into the explanation's timings, and it is a span of the search's trace. */
    private <T> T timed(Map<String, Double> timings, String step, Supplier<T> work) {
        long started = System.nanoTime();
        try {
            return Tracing.inSpan(tracer, "search." + step, work);
        } finally {
            timings.put(step, Math.round((System.nanoTime() - started) / 1e4) / 100.0);
        }
    }

    private CompletableFuture<List<ScoredChunk>> retrieve(Supplier<List<ScoredChunk>> retriever) {
        return CompletableFuture.supplyAsync(retriever, retrievers);
    }

    /** The future's value by the deadline (at least {@link #LATE_WAIT_NANOS} from now); a failure or the wait's end as a RuntimeException. */
    private static <T> T within(CompletableFuture<T> future, long deadline) {
        try {
            return future.get(Math.max(deadline - System.nanoTime(), LATE_WAIT_NANOS), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            future.cancel(true);
            throw new IllegalStateException("no answer within the search's read timeout (openrag.search.read-timeout)");
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : new java.util.concurrent.CompletionException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** {@link #within}, or {@code fallback} when it fails or is late. */
    private static <T> T orElse(CompletableFuture<T> future, long deadline, T fallback) {
        try {
            return within(future, deadline);
        } catch (RuntimeException e) {
            return fallback;
        }
    }

    /** {@link #within}, or {@code fallback} with {@code step} named in {@code degraded} when it is late (a failure is the step's own to report). */
    private <T> T orElse(CompletableFuture<T> future, long deadline, T fallback, String step, List<String> degraded) {
        try {
            return future.get(Math.max(deadline - System.nanoTime(), LATE_WAIT_NANOS), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            future.cancel(true);
            LOG.warnf("%s did not answer within the search's read timeout, answering without it", step);
            degraded.add(step);
            return fallback;
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : new java.util.concurrent.CompletionException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** In {@code degraded} when the filter's keys were not looked up in time, or could not be: unknown keys go unnamed. */
    static final String FILTER_KEYS = "unknownFilterKeys";

    /** The filter's keys some document holds (OpenSearch), or null, with {@link #FILTER_KEYS} named in {@code degraded}. */
    private Set<String> heldKeys(CompletableFuture<Set<String>> lookup, long deadline, List<String> degraded) {
        try {
            return orElse(lookup, deadline, null, FILTER_KEYS, degraded);
        } catch (RuntimeException e) {
            LOG.warnf("the filter's keys could not be looked up, answering without naming unknown ones: %s", rootMessage(e));
            degraded.add(FILTER_KEYS);
            return null;
        }
    }

    private boolean collectionExists(String collection) {
        try {
            return lexical.countChunks(collection) > 0 || vectors.countChunks(collection) > 0;
        } catch (RuntimeException e) {
            return true; // cannot tell: do not call it unknown
        }
    }
}
