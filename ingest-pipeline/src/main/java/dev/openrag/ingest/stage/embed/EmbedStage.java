package dev.openrag.ingest.stage.embed;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.Stages;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.ChunksContextualized;
import dev.openrag.schemas.ChunksEmbedded;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.MutinyEmitter;

/** openrag.chunks.contextualized → openrag.chunks.embedded: one batch per document, text = context + chunk. */
@ApplicationScoped
public class EmbedStage {

    private final StageRunner runner;
    private final Embedder embedder;
    private final MutinyEmitter<String> embedded;

    public EmbedStage(StageRunner runner, Embedder embedder, @Channel("embedded-out") MutinyEmitter<String> embedded) {
        this.runner = runner;
        this.embedder = embedder;
        this.embedded = embedded;
    }

    /** What is embedded for a chunk: its context first, as in Anthropic's contextual retrieval. */
    public static String embeddedText(Chunk chunk) {
        return chunk.context() == null || chunk.context().isBlank() ? chunk.text() : chunk.context() + "\n\n" + chunk.text();
    }

    @Incoming("contextualized-embed")
    @Blocking
    public void onContextualized(ConsumerRecord<String, String> record) {
        runner.run(Stages.EMBED, record, ChunksContextualized.class, document -> {
            List<float[]> vectors = embedder.embed(document.chunks().stream().map(EmbedStage::embeddedText).toList());
            List<Chunk> chunks = new ArrayList<>(vectors.size());
            for (int i = 0; i < vectors.size(); i++) {
                chunks.add(document.chunks().get(i).withVector(vectors.get(i)));
            }
            runner.emit(embedded, new ChunksEmbedded(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(),
                    document.documentId(), document.jobId(), document.collection(), document.source(), document.title(),
                    document.contentHash(), embedder.modelName(), embedder.dimension(), chunks, document.metadata()));
            return chunks.size();
        });
    }
}
