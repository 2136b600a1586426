package dev.openrag.ingest.stage.graph;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.Stages;
import dev.openrag.knowledge.contextual.OllamaGraphExtractor;
import dev.openrag.knowledge.runtime.OllamaConfig;
import dev.openrag.schemas.ChunksContextualized;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.GraphExtracted;
import dev.openrag.schemas.Ids;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.MutinyEmitter;

/** openrag.chunks.contextualized → openrag.graph.extracted (its own consumer group, beside embedding). */
@ApplicationScoped
public class GraphExtractStage {

    private final StageRunner runner;
    private final RuleBasedGraphExtractor extractor;
    private final MutinyEmitter<String> graph;
    private final OllamaGraphExtractor llm;

    /** {@code openrag.graph.extractor}: rules (offline, default) or ollama (the LLM adds entities and relations to the rules'). */
    public GraphExtractStage(StageRunner runner, RuleBasedGraphExtractor extractor,
                             @Channel("graph-out") MutinyEmitter<String> graph,
                             @ConfigProperty(name = "openrag.graph.extractor", defaultValue = "rules") String mode,
                             OllamaConfig ollama) {
        this.runner = runner;
        this.extractor = extractor;
        this.graph = graph;
        this.llm = switch (mode) {
            case "rules" -> null;
            case "ollama" -> new OllamaGraphExtractor(ollama.url(), ollama.model(), ollama.maxInFlight(), ollama.timeout());
            default -> throw new IllegalArgumentException("openrag.graph.extractor must be rules or ollama, not '" + mode + "'");
        };
    }

    @Incoming("contextualized-graph")
    @Blocking
    public void onContextualized(ConsumerRecord<String, String> record) {
        runner.run(Stages.EXTRACT_GRAPH, record, ChunksContextualized.class, document -> {
            String text = String.join("\n", document.chunks().stream().map(c -> c.text()).toList());
            RuleBasedGraphExtractor.Extraction extraction = extractor.extract(text, document.source().uri(), document.chunks());
            if (llm != null) {
                extraction = RuleBasedGraphExtractor.withLlm(extraction, document.chunks(), llm::extract);
            }
            if (document.api() != null) {
                extraction = ApiEntities.merge(extraction, document.api(), document.chunks());
            }
            runner.emit(graph, new GraphExtracted(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(),
                    document.documentId(), document.jobId(), document.collection(),
                    extraction.entities(), extraction.relations(), extraction.mentions(), document.api()));
            return document.chunks().size();
        });
    }
}
