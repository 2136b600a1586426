package dev.openrag.ingest.stage.graph;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.Stages;
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

    public GraphExtractStage(StageRunner runner, RuleBasedGraphExtractor extractor,
                             @Channel("graph-out") MutinyEmitter<String> graph) {
        this.runner = runner;
        this.extractor = extractor;
        this.graph = graph;
    }

    @Incoming("contextualized-graph")
    @Blocking
    public void onContextualized(ConsumerRecord<String, String> record) {
        runner.run(Stages.EXTRACT_GRAPH, record, ChunksContextualized.class, document -> {
            String text = String.join("\n", document.chunks().stream().map(c -> c.text()).toList());
            RuleBasedGraphExtractor.Extraction extraction = extractor.extract(text, document.source().uri(), document.chunks());
            runner.emit(graph, new GraphExtracted(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(),
                    document.documentId(), document.jobId(), document.collection(),
                    extraction.entities(), extraction.relations(), extraction.mentions()));
            return document.chunks().size();
        });
    }
}
