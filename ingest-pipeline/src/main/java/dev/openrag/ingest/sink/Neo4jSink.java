package dev.openrag.ingest.sink;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.Stages;
import dev.openrag.knowledge.port.DocumentMetadataStore;
import dev.openrag.knowledge.port.DocumentTexts;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.knowledge.port.GraphStore;
import dev.openrag.schemas.ChunksEmbedded;
import dev.openrag.schemas.DocumentDeleted;
import dev.openrag.schemas.GraphExtracted;
import io.smallrye.common.annotation.Blocking;

/**
 * Neo4j: documents, sections and chunks with their vectors (from openrag.chunks.embedded), the
 * entity graph (from openrag.graph.extracted) with, when graph retrieval seeds by them, the vectors
 * of its new entities and operations, and deletions, each through its own consumer group.
 */
@ApplicationScoped
public class Neo4jSink {

    public static final String DELETE_STAGE = Stages.DELETE_NEO4J;
    /** What a Neo4j delete removes at once: the chunk sink's document and the graph sink's entities. */
    private static final List<String> GRAPH_STORES = List.of(Stages.SINK_NEO4J, Stages.SINK_GRAPH);

    private final StageRunner runner;
    private final GraphStore graph;
    private final Embedder embedder;
    private final DocumentTexts texts;
    private final DocumentMetadataStore metadata;
    private final MetadataUpdates versions;
    private final boolean embedGraphNodes;

    /**
     * @param nodeSeeds {@code openrag.graph.node-seeds}, the weight query-api gives entities and
     *                  operations similar to a question; above 0, their vectors are made here
     */
    public Neo4jSink(StageRunner runner, GraphStore graph, Embedder embedder, DocumentTexts texts, DocumentMetadataStore metadata,
                     MetadataUpdates versions, @ConfigProperty(name = "openrag.graph.node-seeds", defaultValue = "0") double nodeSeeds) {
        this.metadata = metadata;
        this.versions = versions;
        this.runner = runner;
        this.graph = graph;
        this.embedder = embedder;
        this.texts = texts;
        this.embedGraphNodes = nodeSeeds > 0;
    }

    @Incoming("embedded-neo4j")
    @Blocking
    public void onEmbedded(ConsumerRecord<String, String> record) {
        runner.run(Stages.SINK_NEO4J, record, ChunksEmbedded.class, document -> {
            versions.write(record, document, Stages.SINK_NEO4J, () -> {
                graph.upsertDocument(document.collection(), document.documentId(), document.title(), document.source().uri(),
                        document.contentHash(), IndexedChunks.of(document),
                        document.sections() == null ? List.of() : document.sections());
                metadata.replaceMetadata(document.collection(), document.documentId(), IndexedChunks.metadata(document));
            }, () -> graph.deleteDocument(document.collection(), document.documentId()));
            return document.chunks().size();
        });
    }

    @Incoming("graph-neo4j")
    @Blocking
    public void onGraph(ConsumerRecord<String, String> record) {
        runner.run(Stages.SINK_GRAPH, record, GraphExtracted.class, extracted -> {
            // the version rule of the chunk sinks: no graph of a version older than a delete or than the graph stored
            boolean written = versions.write(record, extracted, Stages.SINK_GRAPH, () -> graph.upsertGraph(extracted),
                    () -> graph.deleteGraph(extracted.collection(), extracted.documentId()));
            if (written && embedGraphNodes) {
                graph.embedGraphNodes(extracted, embedder);
            }
            return extracted.mentions().size();
        });
    }

    @Incoming("deleted-neo4j")
    @Blocking
    public void onDeleted(ConsumerRecord<String, String> record) {
        runner.run(DELETE_STAGE, record, DocumentDeleted.class, deleted -> {
            // kept when a version that arrived after the delete is stored: its text too (one updated in place wrote none)
            // one removal empties the chunks and the entity graph, so one delete record covers both sinks
            if (versions.delete(record, deleted, GRAPH_STORES, () -> graph.deleteDocument(deleted.collection(), deleted.documentId()))) {
                // a tombstone with the delete's time: a text write of a version that arrived before it stays out
                texts.delete(deleted.collection(), deleted.documentId(), StageRunner.versionTime(record, deleted));
            }
            return 0;
        });
    }
}
