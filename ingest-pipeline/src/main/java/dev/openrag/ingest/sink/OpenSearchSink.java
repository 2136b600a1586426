package dev.openrag.ingest.sink;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.openrag.ingest.stage.RejectedDocument;
import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.Stages;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.schemas.ChunksEmbedded;
import dev.openrag.schemas.DocumentDeleted;
import io.smallrye.common.annotation.Blocking;

/** Embedded chunks → the OpenSearch BM25 index (its own consumer group); deletions likewise. */
@ApplicationScoped
public class OpenSearchSink {

    public static final String DELETE_STAGE = Stages.DELETE_OPENSEARCH;

    private final StageRunner runner;
    private final MetadataUpdates versions;
    private final LexicalIndex index;

    public OpenSearchSink(StageRunner runner, LexicalIndex index, MetadataUpdates versions) {
        this.versions = versions;
        this.runner = runner;
        this.index = index;
    }

    @Incoming("embedded-opensearch")
    @Blocking
    public void onEmbedded(ConsumerRecord<String, String> record) {
        runner.run(Stages.SINK_OPENSEARCH, record, ChunksEmbedded.class, document -> {
            versions.write(record, document, Stages.SINK_OPENSEARCH, () -> {
                try {
                    index.replaceDocument(document.collection(), document.documentId(), IndexedChunks.of(document));
                } catch (IllegalArgumentException e) {
                    // the metadata field limit: parsing reserved the document's fields, so only an event written past it
                    throw new RejectedDocument(e.getMessage());
                }
            }, () -> index.deleteDocument(document.collection(), document.documentId()));
            return document.chunks().size();
        });
    }

    @Incoming("deleted-opensearch")
    @Blocking
    public void onDeleted(ConsumerRecord<String, String> record) {
        runner.run(DELETE_STAGE, record, DocumentDeleted.class, deleted -> {
            versions.delete(record, deleted, Stages.SINK_OPENSEARCH, () -> index.deleteDocument(deleted.collection(), deleted.documentId()));
            return 0;
        });
    }
}
