package dev.openrag.query.search;

import java.util.ArrayList;
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

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.openrag.knowledge.memory.RelatedKnowledge;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.GraphRetriever;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.knowledge.port.MemoryStore;
import dev.openrag.knowledge.port.ScoredChunk;
import dev.openrag.knowledge.port.VectorIndex;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.schemas.CollectionNames;

/**
 * Hybrid retrieval: vector top-N and BM25 top-N run in parallel and are fused by reciprocal rank
 * fusion. A retriever whose store is down is left out and named in {@code degraded}; only when
 * every retriever fails is the search unavailable (503).
 */
@ApplicationScoped
public class SearchService {

    private static final Logger LOG = Logger.getLogger(SearchService.class);
    private static final Set<String> MODES = Set.of("hybrid", "vector", "bm25", "graph");
    private static final Set<String> PLANNED_MODES = Set.of("summary", "hybrid_expanded", "automatic");
    private static final int MEMORY_LIMIT = 5;
    static final String VECTOR = "vector";
    static final String BM25 = "bm25";
    static final String GRAPH = "graph";

    private final Embedder embedder;
    private final VectorIndex vectors;
    private final LexicalIndex lexical;
    private final MemoryStore memories;
    private final GraphRetriever graph;
    private final FeedbackRanking feedback;
    private final double memoryMinSimilarity;
    private final int candidates;
    private final int rrfK;
    private final Map<String, Double> weights;
    private final ExecutorService retrievers = Executors.newVirtualThreadPerTaskExecutor();

    public SearchService(Embedder embedder, VectorIndex vectors, LexicalIndex lexical, MemoryStore memories,
                         @ConfigProperty(name = "openrag.search.memory-min-similarity", defaultValue = "0.85") double memoryMinSimilarity,
                         @ConfigProperty(name = "openrag.search.candidates", defaultValue = "50") int candidates,
                         @ConfigProperty(name = "openrag.search.rrf-k", defaultValue = "60") int rrfK,
                         @ConfigProperty(name = "openrag.search.weight.vector", defaultValue = "1.0") double vectorWeight,
                         @ConfigProperty(name = "openrag.search.weight.bm25", defaultValue = "1.0") double bm25Weight,
                         @ConfigProperty(name = "openrag.search.weight.graph", defaultValue = "0.0") double graphWeight,
                         GraphRetriever graph, FeedbackRanking feedback) {
        this.embedder = embedder;
        this.vectors = vectors;
        this.lexical = lexical;
        this.memories = memories;
        this.graph = graph;
        this.feedback = feedback;
        this.memoryMinSimilarity = memoryMinSimilarity;
        this.candidates = candidates;
        this.rrfK = rrfK;
        this.weights = Map.of(VECTOR, vectorWeight, BM25, bm25Weight, GRAPH, graphWeight);
    }

    @PreDestroy
    void close() {
        retrievers.shutdown();
    }

    public SearchResponse search(SearchRequest request) {
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
        if (PLANNED_MODES.contains(mode)) {
            throw ApiException.badRequest("mode '" + mode + "' is not available yet; use hybrid, vector, bm25 or graph");
        }
        if (!MODES.contains(mode)) {
            throw ApiException.badRequest("unknown mode '" + mode + "'; use hybrid, vector, bm25 or graph");
        }
        int maxHops = request.maxHops() == null ? 1 : request.maxHops();
        if (maxHops < 0 || maxHops > 3) {
            throw ApiException.badRequest("field 'maxHops' must be between 0 and 3, got " + maxHops);
        }
        boolean explain = Boolean.TRUE.equals(request.explain());
        int depth = mode.equals("hybrid") ? Math.max(candidates, k) : k;

        // the query vector serves the vector retriever, memories and feedback: embedded once, and
        // only when one of them needs it (a BM25 search on an install without memories never does)
        Map<String, Double> timings = new ConcurrentHashMap<>();
        Supplier<float[]> queryVector = once(() -> timed(timings, "embedQuery", () -> embedder.embedQuery(query)));
        Map<String, CompletableFuture<List<ScoredChunk>>> running = new LinkedHashMap<>();
        boolean hybrid = mode.equals("hybrid");
        if (hybrid || mode.equals(VECTOR)) {
            running.put(VECTOR, retrieve(() -> {
                float[] vector = queryVector.get();
                return timed(timings, VECTOR, () -> vectors.search(collection, vector, depth));
            }));
        }
        if (hybrid && weights.get(GRAPH) > 0 || mode.equals(GRAPH)) {
            running.put(GRAPH, retrieve(() -> timed(timings, GRAPH, () -> graph.search(collection, query, maxHops, depth))));
        }
        if (hybrid || mode.equals(BM25)) {
            running.put(BM25, retrieve(() -> timed(timings, BM25, () -> lexical.search(collection, query, depth))));
        }
        Map<String, List<ScoredChunk>> hits = new LinkedHashMap<>();
        List<String> degraded = new ArrayList<>();
        running.forEach((retriever, future) -> {
            try {
                hits.put(retriever, future.join());
            } catch (RuntimeException e) {
                LOG.warnf("%s retriever failed, answering without it: %s", retriever, e.getMessage());
                degraded.add(switch (retriever) {
                    case BM25 -> "opensearch";
                    case GRAPH -> "graph";
                    default -> "vectors";
                });
            }
        });
        if (hits.isEmpty()) {
            throw new ApiException(503, "unavailable", "no retriever could answer: " + String.join(", ", degraded) + " unreachable");
        }
        if (hits.values().stream().allMatch(List::isEmpty) && !collectionExists(collection)) {
            throw ApiException.badRequest("unknown collection '" + collection + "': nothing has been ingested into it");
        }
        long fusing = System.nanoTime();
        // a single retriever keeps its own order, whatever its fusion weight
        List<SearchResponse.Result> fused = RankFusion.fuse(hits, hybrid ? weights : Map.of(mode, 1.0), rrfK).stream().limit(k)
                .map(hit -> new SearchResponse.Result(hit.chunk().chunkId(), hit.chunk().documentId(), hit.chunk().chunkIndex(),
                        hit.chunk().title(), hit.chunk().sourceUri(), hit.chunk().text(), hit.chunk().context(),
                        mode.equals("hybrid") ? hit.score() : hit.scores().values().iterator().next(),
                        hit.ranks(), explain ? hit.scores() : null, null))
                .toList();
        timings.put("fusion", Math.round((System.nanoTime() - fusing) / 1e4) / 100.0);
        List<SearchResponse.Result> results = timed(timings, "feedback", () -> feedback.apply(fused, queryVector, explain, degraded));
        RelatedKnowledge related = timed(timings, "memories", () -> related(request.scopes(), queryVector, results, degraded));
        return new SearchResponse(results, related.memories().stream()
                .map(hit -> new SearchResponse.MemoryNote(hit.memory().id(), hit.memory().scope(), hit.memory().text(),
                        hit.memory().tags(), hit.score()))
                .toList(), related.corrections(), (System.nanoTime() - started) / 1_000_000, mode,
                degraded.isEmpty() ? null : degraded, explain ? new TreeMap<>(timings) : null);
    }

    /** Pinned memories and corrections for the results; Neo4j being down only costs this section. */
    private RelatedKnowledge related(List<String> scopes, Supplier<float[]> queryVector,
                                     List<SearchResponse.Result> results, List<String> degraded) {
        try {
            // one cheap existence check spares the full lookup on installs without pinned memories or corrections
            if (!memories.hasPinnedOrCorrections()) {
                return RelatedKnowledge.NONE;
            }
            return memories.related(scopes == null || scopes.isEmpty() ? null : scopes, queryVector.get(), memoryMinSimilarity,
                    results.stream().map(SearchResponse.Result::chunkId).toList(), MEMORY_LIMIT, System.currentTimeMillis());
        } catch (RuntimeException e) {
            LOG.warnf("memories and corrections unavailable, answering without them: %s", e.getMessage());
            degraded.add("memories");
            return RelatedKnowledge.NONE;
        }
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
    private static <T> T timed(Map<String, Double> timings, String step, Supplier<T> work) {
        long started = System.nanoTime();
        try {
            return work.get();
        } finally {
            timings.put(step, Math.round((System.nanoTime() - started) / 1e4) / 100.0);
        }
    }

    private CompletableFuture<List<ScoredChunk>> retrieve(Supplier<List<ScoredChunk>> retriever) {
        return CompletableFuture.supplyAsync(retriever, retrievers);
    }

    private boolean collectionExists(String collection) {
        try {
            return lexical.countChunks(collection) > 0 || vectors.countChunks(collection) > 0;
        } catch (RuntimeException e) {
            return true; // cannot tell: do not call it unknown
        }
    }
}
