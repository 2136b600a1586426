package dev.openrag.ingest.stage.contextualize;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.openrag.ingest.enrich.Enrichments;
import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.Stages;
import dev.openrag.knowledge.port.Contextualizer;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.ChunksContextualized;
import dev.openrag.schemas.DocumentChunked;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.MutinyEmitter;

/** openrag.chunks.chunked → openrag.chunks.contextualized: each chunk gets its situating context. */
@ApplicationScoped
public class ContextualizeStage {

    private final StageRunner runner;
    private final Enrichments enrichments;
    private final MutinyEmitter<String> contextualized;

    public ContextualizeStage(StageRunner runner, Enrichments enrichments,
                              @Channel("contextualized-out") MutinyEmitter<String> contextualized) {
        this.runner = runner;
        this.enrichments = enrichments;
        this.contextualized = contextualized;
    }

    @Incoming("chunked-in")
    @Blocking
    public void onChunked(ConsumerRecord<String, String> record) {
        runner.runReporting(Stages.CONTEXTUALIZE, record, DocumentChunked.class, document -> {
            Enrichments.Pick<Contextualizer> pick = enrichments.contextualizer(document.collection(), document.jobId());
            Contextualizer contextualizer = pick.enricher();
            Contextualizer.Contexts contextualized = contextualizer.contextualize(document.title(), document.source().uri(),
                    document.text(), document.chunks());
            List<String> contexts = contextualized.texts();
            List<Chunk> chunks = new ArrayList<>(document.chunks().size());
            for (int i = 0; i < document.chunks().size(); i++) {
                chunks.add(document.chunks().get(i).withContext(contexts.get(i)));
            }
            runner.emit(this.contextualized, new ChunksContextualized(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(),
                    document.documentId(), document.jobId(), document.collection(), document.source(), document.title(),
                    document.contentHash(), contextualizer.name(), chunks, document.metadata(), document.api(),
                    document.arrivedAt()));
            List<String> warnings = new ArrayList<>(pick.warnings());
            warnings.addAll(contextualized.warnings());
            return new StageRunner.Outcome(chunks.size(), warnings, contextualized.usage(), contextualized.model());
        });
    }
}
