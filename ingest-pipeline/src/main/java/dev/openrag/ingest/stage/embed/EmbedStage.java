package dev.openrag.ingest.stage.embed;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.Stages;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.SectionSummarizer;
import dev.openrag.knowledge.summary.SectionSummaries;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.ChunksContextualized;
import dev.openrag.schemas.ChunksEmbedded;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.SectionSummary;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.MutinyEmitter;

/**
 * openrag.chunks.contextualized → openrag.chunks.embedded: one batch per document, text = context +
 * chunk, and in the same batch the summaries of the document and its sections (ARCHITECTURE §4,
 * summary-aware retrieval), unless {@code openrag.sections.summaries=false}.
 */
@ApplicationScoped
public class EmbedStage {

    private final StageRunner runner;
    private final Embedder embedder;
    private final MutinyEmitter<String> embedded;
    private final SectionSummarizer summarizer;

    public EmbedStage(StageRunner runner, Embedder embedder, @Channel("embedded-out") MutinyEmitter<String> embedded,
                      SectionSummarizer summarizer,
                      @ConfigProperty(name = "openrag.sections.summaries", defaultValue = "true") boolean summaries) {
        this.runner = runner;
        this.embedder = embedder;
        this.embedded = embedded;
        this.summarizer = summaries ? summarizer : null;
    }

    /** What is embedded for a chunk: its context first, as in Anthropic's contextual retrieval. */
    public static String embeddedText(Chunk chunk) {
        return chunk.context() == null || chunk.context().isBlank() ? chunk.text() : chunk.context() + "\n\n" + chunk.text();
    }

    @Incoming("contextualized-embed")
    @Blocking
    public void onContextualized(ConsumerRecord<String, String> record) {
        runner.run(Stages.EMBED, record, ChunksContextualized.class, document -> {
            List<SectionSummary> sections = summarizer == null ? List.of()
                    : SectionSummaries.of(document.title(), document.chunks(), summarizer);
            List<String> texts = new ArrayList<>(document.chunks().stream().map(EmbedStage::embeddedText).toList());
            sections.forEach(section -> texts.add(section.summary()));
            List<float[]> vectors = embedder.embed(texts);
            List<Chunk> chunks = new ArrayList<>(document.chunks().size());
            for (int i = 0; i < document.chunks().size(); i++) {
                chunks.add(document.chunks().get(i).withVector(vectors.get(i)));
            }
            List<SectionSummary> summaries = new ArrayList<>(sections.size());
            for (int i = 0; i < sections.size(); i++) {
                SectionSummary section = sections.get(i);
                summaries.add(new SectionSummary(section.headingPath(), section.title(), section.summary(),
                        vectors.get(chunks.size() + i)));
            }
            runner.emit(embedded, new ChunksEmbedded(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(),
                    document.documentId(), document.jobId(), document.collection(), document.source(), document.title(),
                    document.contentHash(), embedder.modelName(), embedder.dimension(), chunks, document.metadata(),
                    summaries.isEmpty() ? null : summaries));
            return chunks.size();
        });
    }
}
