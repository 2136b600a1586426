package dev.openrag.ingest.sink;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.Stages;
import dev.openrag.knowledge.port.VectorIndex;
import dev.openrag.schemas.ChunksEmbedded;
import dev.openrag.schemas.DocumentDeleted;
import io.smallrye.common.annotation.Blocking;

/**
 * Embedded chunks → the configured {@link VectorIndex} when vectors live outside Neo4j
 * ({@code openrag.vectors.backend=qdrant}). Its channels are enabled only in that mode
 * (application.properties); with the default Neo4j backend the Neo4j sink writes the vectors.
 */
@ApplicationScoped
public class QdrantSink {

    public static final String DELETE_STAGE = Stages.DELETE_QDRANT;

    private final StageRunner runner;
    private final MetadataUpdates versions;
    private final VectorIndex vectors;

    public QdrantSink(StageRunner runner, VectorIndex vectors, MetadataUpdates versions) {
        this.versions = versions;
        this.runner = runner;
        this.vectors = vectors;
    }

    @Incoming("embedded-qdrant")
    @Blocking
    public void onEmbedded(ConsumerRecord<String, String> record) {
        runner.run(Stages.SINK_QDRANT, record, ChunksEmbedded.class, document -> {
            versions.write(record, document, Stages.SINK_QDRANT,
                    () -> vectors.replaceDocument(document.collection(), document.documentId(), IndexedChunks.of(document)),
                    () -> vectors.deleteDocument(document.collection(), document.documentId()));
            return document.chunks().size();
        });
    }

    @Incoming("deleted-qdrant")
    @Blocking
    public void onDeleted(ConsumerRecord<String, String> record) {
        runner.run(DELETE_STAGE, record, DocumentDeleted.class, deleted -> {
            versions.delete(record, deleted, Stages.SINK_QDRANT, () -> vectors.deleteDocument(deleted.collection(), deleted.documentId()));
            return 0;
        });
    }
}
