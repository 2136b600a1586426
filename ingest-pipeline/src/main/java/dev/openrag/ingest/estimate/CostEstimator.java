package dev.openrag.ingest.estimate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.openrag.ingest.enrich.Enrichments;
import dev.openrag.ingest.source.DocumentPublisher;
import dev.openrag.ingest.stage.chunk.DocumentChunker;
import dev.openrag.ingest.stage.parse.ParseStage;
import dev.openrag.knowledge.contextual.LlmContextualizer;
import dev.openrag.knowledge.contextual.LlmGraphExtractor;
import dev.openrag.knowledge.llm.TokenEstimate;
import dev.openrag.knowledge.port.ChatModel.Prompt;
import dev.openrag.knowledge.port.Contextualizer;
import dev.openrag.knowledge.port.SectionSummarizer;
import dev.openrag.knowledge.runtime.Prices;
import dev.openrag.knowledge.summary.ChatSummarizer;
import dev.openrag.knowledge.summary.SectionSummaries;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.DocumentParsed;
import dev.openrag.schemas.TokenUsage;

/**
 * What ingesting documents into a collection would cost in LLM tokens, with the collection's
 * settings, without calling any model: each document is parsed and chunked as the pipeline does,
 * the exact prompts each LLM role would send are built and counted offline ({@link TokenEstimate}),
 * and the answers are assumed to be {@link #CONTEXT_TOKENS} per context, {@link #SUMMARY_TOKENS}
 * per summary and, for graph JSON, {@link #GRAPH_BASE_TOKENS} plus half the chunk. Repairs of bad
 * JSON are not foreseen. A document prefix of at least {@link #CACHEABLE_TOKENS} is counted as read
 * from the provider's cache for every chunk after the first (OpenAI and Anthropic).
 */
@ApplicationScoped
public class CostEstimator {

    static final int CONTEXT_TOKENS = 80;
    static final int SUMMARY_TOKENS = 80;
    static final int GRAPH_BASE_TOKENS = 40;
    static final int CACHEABLE_TOKENS = 1024;

    /** One role's share: the model, its calls and tokens, and their cost (null: the model has no price). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RoleEstimate(String model, long calls, long inputTokens, long cachedInputTokens, long outputTokens, Double cost) {
    }

    /** The whole estimate; {@code cost} null when a hosted model in it has no price. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Estimate(String collection, int documents, int chunks, long tokensIn, long cachedTokensIn, long tokensOut,
                           Double cost, Map<String, RoleEstimate> roles, List<DocumentPublisher.Rejection> rejected) {
    }

    private final ParseStage parsing;
    private final DocumentChunker chunker;
    private final Enrichments enrichments;
    private final Prices prices;

    public CostEstimator(ParseStage parsing, DocumentChunker chunker, Enrichments enrichments, Prices prices) {
        this.parsing = parsing;
        this.chunker = chunker;
        this.enrichments = enrichments;
        this.prices = prices;
    }

    public Estimate estimate(String collection, List<DocumentArrived> documents, List<DocumentPublisher.Rejection> refused) {
        Contextualizer contextualizer = enrichments.contextualizer(collection, null).enricher();
        LlmGraphExtractor graph = enrichments.graphExtractor(collection, null).enricher();
        SectionSummarizer summarizer = enrichments.summarizer(collection, null).enricher();
        Map<String, Tally> roles = new LinkedHashMap<>();
        List<DocumentPublisher.Rejection> rejected = new ArrayList<>(refused);
        int estimated = 0;
        int chunkCount = 0;
        for (DocumentArrived document : documents) {
            List<Chunk> chunks;
            DocumentParsed parsed;
            try {
                parsed = parsing.parse(document).event();
                chunks = chunker.chunk(parsed);
            } catch (RuntimeException e) {
                rejected.add(new DocumentPublisher.Rejection(String.valueOf(document.metadata().getOrDefault("fileName", document.documentId())),
                        e.getMessage(), null));
                continue;
            }
            estimated++;
            chunkCount += chunks.size();
            if (contextualizer instanceof LlmContextualizer llm) {
                Tally tally = roles.computeIfAbsent("contextualizer", r -> new Tally(llm.model()));
                List<Prompt> prompts = llm.prompts(parsed.text(), chunks);
                boolean cacheable = caches(llm.model()) && !prompts.isEmpty() && TokenEstimate.systemTokens(prompts.get(0)) >= CACHEABLE_TOKENS;
                for (int i = 0; i < prompts.size(); i++) {
                    tally.add(TokenEstimate.tokens(prompts.get(i)), cacheable && i > 0 ? TokenEstimate.systemTokens(prompts.get(i)) : 0,
                            CONTEXT_TOKENS);
                }
            }
            if (graph != null) {
                Tally tally = roles.computeIfAbsent("graph-extractor", r -> new Tally(graph.name()));
                for (Chunk chunk : chunks) {
                    tally.add(TokenEstimate.tokens(graph.prompt(chunk.text())), 0, GRAPH_BASE_TOKENS + TokenEstimate.tokens(chunk.text()) / 2);
                }
            }
            if (summarizer instanceof ChatSummarizer llm) {
                Tally tally = roles.computeIfAbsent("summarizer", r -> new Tally(llm.model()));
                SectionSummaries.sections(chunks).forEach((path, texts) ->
                        tally.add(TokenEstimate.tokens(llm.prompt(parsed.title(), path, texts)), 0, SUMMARY_TOKENS));
            }
        }
        Map<String, RoleEstimate> byRole = new LinkedHashMap<>();
        TokenUsage total = TokenUsage.NONE;
        Double cost = 0.0;
        for (Map.Entry<String, Tally> role : roles.entrySet()) {
            Tally tally = role.getValue();
            TokenUsage usage = new TokenUsage(tally.calls, tally.input, tally.output, tally.cached);
            Optional<Double> priced = prices.cost(tally.model, usage);
            byRole.put(role.getKey(), new RoleEstimate(tally.model, tally.calls, tally.input, tally.cached, tally.output,
                    priced.orElse(prices.free(tally.model) ? 0.0 : null)));
            total = total.plus(usage);
            if (priced.isPresent()) {
                cost = cost == null ? null : cost + priced.get();
            } else if (!prices.free(tally.model)) {
                cost = null;
            }
        }
        return new Estimate(collection, estimated, chunkCount, total.inputTokens(), total.cachedInputTokens(), total.outputTokens(),
                cost, byRole, rejected);
    }

    /** Providers that cache a long shared prompt prefix (Anthropic when asked, as the contextualizer does; OpenAI always). */
    private static boolean caches(String model) {
        return model.startsWith("anthropic:") || model.startsWith("openai:");
    }

    private static final class Tally {
        final String model;
        long calls;
        long input;
        long cached;
        long output;

        Tally(String model) {
            this.model = model;
        }

        void add(long inputTokens, long cachedTokens, long outputTokens) {
            calls++;
            input += inputTokens;
            cached += cachedTokens;
            output += outputTokens;
        }
    }
}
