package dev.openrag.ingest.stage.graph;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.openrag.ingest.enrich.Enrichments;
import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.Stages;
import dev.openrag.knowledge.contextual.LlmGraphExtractor;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.ChunksContextualized;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.GraphExtracted;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.TokenUsage;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.MutinyEmitter;

/** openrag.chunks.contextualized → openrag.graph.extracted (its own consumer group, beside embedding). */
@ApplicationScoped
public class GraphExtractStage {

    private final StageRunner runner;
    private final RuleBasedGraphExtractor extractor;
    private final MutinyEmitter<String> graph;
    private final Enrichments enrichments;
    private final ExecutorService llmCalls = Executors.newVirtualThreadPerTaskExecutor();

    /**
     * A collection's graph comes from the rules (offline, default) or the rules plus an LLM's
     * entities and relations ({@link Enrichments#graphExtractor}).
     */
    public GraphExtractStage(StageRunner runner, RuleBasedGraphExtractor extractor,
                             @Channel("graph-out") MutinyEmitter<String> graph, Enrichments enrichments) {
        this.runner = runner;
        this.extractor = extractor;
        this.graph = graph;
        this.enrichments = enrichments;
    }

    @Incoming("contextualized-graph")
    @Blocking
    public void onContextualized(ConsumerRecord<String, String> record) {
        runner.runReporting(Stages.EXTRACT_GRAPH, record, ChunksContextualized.class, document -> {
            String text = String.join("\n", document.chunks().stream().map(c -> c.text()).toList());
            RuleBasedGraphExtractor.Extraction extraction = extractor.extract(text, document.source().uri(), document.chunks());
            TokenUsage usage = null;
            Enrichments.Pick<LlmGraphExtractor> pick = enrichments.graphExtractor(document.collection(), document.jobId());
            List<String> warnings = new ArrayList<>(pick.warnings());
            LlmGraphExtractor llm = pick.enricher();
            if (llm != null) {
                List<LlmGraphExtractor.Result> results = extractWithLlm(llm, document.chunks());
                extraction = RuleBasedGraphExtractor.withLlm(extraction, document.chunks(),
                        results.stream().map(LlmGraphExtractor.Result::found).toList());
                usage = results.stream().map(LlmGraphExtractor.Result::usage).reduce(TokenUsage.NONE, TokenUsage::plus);
                warnings.addAll(fallbackWarning(llm, results));
            }
            if (document.api() != null) {
                extraction = ApiEntities.merge(extraction, document.api(), document.chunks());
            }
            runner.emit(graph, new GraphExtracted(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(),
                    document.documentId(), document.jobId(), document.collection(),
                    extraction.entities(), extraction.relations(), extraction.mentions(), document.api(),
                    StageRunner.versionTime(record, document)));
            return new StageRunner.Outcome(document.chunks().size(), warnings, usage, llm == null ? null : llm.name());
        });
    }

    /** All chunks at once: the model's in-flight bound, not this loop, limits the calls. */
    private List<LlmGraphExtractor.Result> extractWithLlm(LlmGraphExtractor llm, List<Chunk> chunks) {
        List<CompletableFuture<LlmGraphExtractor.Result>> calls = new ArrayList<>(chunks.size());
        for (Chunk chunk : chunks) {
            calls.add(CompletableFuture.supplyAsync(() -> llm.extract(chunk.text()), llmCalls));
        }
        return calls.stream().map(CompletableFuture::join).toList();
    }

    private static List<String> fallbackWarning(LlmGraphExtractor llm, List<LlmGraphExtractor.Result> results) {
        List<String> problems = results.stream().map(LlmGraphExtractor.Result::problem).filter(p -> p != null).toList();
        if (problems.isEmpty()) {
            return List.of();
        }
        return List.of(problems.size() + " of " + results.size() + " chunks kept the rule-based graph: " + llm.name()
                + " gave " + problems.get(0) + (problems.size() > 1 ? " (and others)" : ""));
    }
}
