package dev.openrag.query.search;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.openrag.knowledge.port.FeedbackStore;

/**
 * Feedback on earlier, similar queries nudges the order of a search's results: each result's
 * score is multiplied by {@code 1 + weight × net verdict}, bounded to ±{@code max}, and the
 * results are re-sorted. Only the order of the top k changes: feedback never removes a result.
 */
@ApplicationScoped
public class FeedbackRanking {

    private static final Logger LOG = Logger.getLogger(FeedbackRanking.class);

    private final FeedbackStore store;
    private final double minSimilarity;
    private final double weight;
    private final double max;

    public FeedbackRanking(FeedbackStore store,
                           @ConfigProperty(name = "openrag.search.feedback.min-similarity", defaultValue = "0.9") double minSimilarity,
                           @ConfigProperty(name = "openrag.search.feedback.weight", defaultValue = "0.1") double weight,
                           @ConfigProperty(name = "openrag.search.feedback.max", defaultValue = "0.2") double max) {
        this.store = store;
        this.minSimilarity = minSimilarity;
        this.weight = weight;
        this.max = max;
    }

    /** @param anyFeedback whether any feedback exists ({@link dev.openrag.knowledge.port.SearchState}); fails as it did */
    List<SearchResponse.Result> apply(List<SearchResponse.Result> results, CompletableFuture<Boolean> anyFeedback,
                                      Supplier<float[]> queryVector, boolean explain, List<String> degraded) {
        if (results.isEmpty()) {
            return results;
        }
        Map<String, Double> net;
        try {
            if (!anyFeedback.join()) {
                return results;
            }
            net = store.netVerdicts(results.stream().map(SearchResponse.Result::chunkId).toList(), queryVector.get(), minSimilarity);
        } catch (RuntimeException e) {
            LOG.warnf("feedback unavailable, ranking without it: %s", SearchService.rootMessage(e));
            degraded.add("feedback");
            return results;
        }
        if (net.isEmpty()) {
            return results;
        }
        return results.stream()
                .map(result -> net.containsKey(result.chunkId())
                        ? result.withFeedback(1 + Math.max(-max, Math.min(max, weight * net.get(result.chunkId()))), explain)
                        : result)
                .sorted(Comparator.comparingDouble(SearchResponse.Result::score).reversed())
                .toList();
    }
}
