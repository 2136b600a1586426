package dev.openrag.ingest.stage.embed;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.openrag.ingest.enrich.Enrichments;
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
 * summary-aware retrieval), unless the collection's summaries are off ({@link Enrichments#summarizer}).
 */
@ApplicationScoped
public class EmbedStage {

    private final StageRunner runner;
    private final Embedder embedder;
    private final MutinyEmitter<String> embedded;
    private final Enrichments enrichments;

    public EmbedStage(StageRunner runner, Embedder embedder, @Channel("embedded-out") MutinyEmitter<String> embedded,
                      Enrichments enrichments) {
        this.runner = runner;
        this.embedder = embedder;
        this.embedded = embedded;
        this.enrichments = enrichments;
    }

    /** What is embedded for a chunk: its context first, as in Anthropic's contextual retrieval. */
    public static String embeddedText(Chunk chunk) {
        return chunk.context() == null || chunk.context().isBlank() ? chunk.text() : chunk.context() + "\n\n" + chunk.text();
    }

    @Incoming("contextualized-embed")
    @Blocking
    public void onContextualized(ConsumerRecord<String, String> record) {
        runner.runReporting(Stages.EMBED, record, ChunksContextualized.class, document -> {
            Enrichments.Pick<SectionSummarizer> summarizer = enrichments.summarizer(document.collection(), document.jobId());
            SectionSummaries.Summaries summarized = summarizer.enricher() == null ? SectionSummaries.Summaries.NONE
                    : SectionSummaries.summarize(document.title(), document.chunks(), summarizer.enricher());
            List<SectionSummary> sections = summarized.sections();
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
                    summaries.isEmpty() ? null : summaries, document.arrivedAt()));
            return new StageRunner.Outcome(chunks.size(), summarizer.warnings(), summarized.usage(), summarized.model());
        });
    }
}
