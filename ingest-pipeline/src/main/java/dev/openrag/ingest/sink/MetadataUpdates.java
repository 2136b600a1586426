package dev.openrag.ingest.sink;

import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.openrag.ingest.stage.StageRunner;
import dev.openrag.ingest.stage.Stages;
import dev.openrag.knowledge.port.DocumentMetadataStore;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.knowledge.port.VectorIndex;
import dev.openrag.schemas.DocumentParsed;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.Metadata;
import dev.openrag.schemas.StageCompleted;

/**
 * A new version of a document whose text and title are the stored ones and whose metadata is not:
 * its metadata is written into every store in place (the OpenSearch chunks, the Qdrant payload, the
 * Neo4j document) and the document skips chunking, contextualizing and embedding. Any doubt (no
 * stored version, a store missing some of its chunks) leaves it to the whole pipeline, which
 * rewrites every store; an identical version (same metadata too) also goes the whole way, as a
 * re-ingest always did.
 *
 * <p>An older version still on its way through the pipeline is such a doubt too. Every topic is
 * keyed by document, so versions that go the whole way reach each store in the order they arrived;
 * an update in place overtakes them, and the older one's write would then put back its metadata
 * (and, when its text differs, its text under the newer metadata). So each version sent the whole
 * way is recorded when parsed ({@link #entered}) and each metadata-keeping sink records the version
 * it wrote ({@link #write}); a version updates in place only when every such store holds the last
 * one that entered, and otherwise goes the whole way behind it. A version is named by its job and
 * the time it arrived, fixed at parsing and carried on every event ({@link #version}).
 *
 * <p>Deletes travel apart from versions, so each store follows the order the calls were made in by
 * their times ({@link #write}, {@link #delete}): a delete made before a re-upload never removes it, even
 * when the re-upload was updated in place before the delete reached the stores, and a version that
 * arrived before a delete is never written back after it.
 */
@ApplicationScoped
public class MetadataUpdates {

    /** The warning a job shows for a document updated so. */
    public static final String UPDATED = "content unchanged: only its metadata was updated (not re-chunked or re-embedded)";
    /**
     * Names an update in place apart from the same version sent the whole way when the update falls through
     * (a store lacks chunks): until the sinks have written that one, the document is not settled.
     */
    private static final String IN_PLACE = "+in-place";
    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(MetadataUpdates.class);

    private final DocumentMetadataStore documents;
    private final LexicalIndex lexical;
    private final VectorIndex vectors;
    private final StageRunner runner;
    private final java.util.List<String> finalStages;
    private final java.util.List<String> metadataStores;

    public MetadataUpdates(DocumentMetadataStore documents, LexicalIndex lexical, VectorIndex vectors, StageRunner runner,
                           @ConfigProperty(name = "openrag.vectors.backend", defaultValue = "neo4j") String vectorBackend) {
        this.documents = documents;
        this.lexical = lexical;
        this.vectors = vectors;
        this.runner = runner;
        this.finalStages = Stages.finalStages(vectorBackend);
        this.metadataStores = "qdrant".equals(vectorBackend)
                ? java.util.List.of(Stages.SINK_OPENSEARCH, Stages.SINK_NEO4J, Stages.SINK_QDRANT)
                : java.util.List.of(Stages.SINK_OPENSEARCH, Stages.SINK_NEO4J);
    }

    /** Records the version of {@code record} as sent down the whole pipeline; before it is sent. */
    public void entered(ConsumerRecord<?, ?> record, EventEnvelope event) {
        documents.versionEntered(event.collection(), event.documentId(), version(record, event), StageRunner.versionTime(record, event));
    }

    /**
     * Writes the version of {@code record} into the sink {@code store} and records it, unless a delete made at or
     * after its arrival, or a newer version, is recorded there; a delete recorded while it was being written is honoured by removing it
     * again. Returns whether the version stands.
     */
    public boolean write(ConsumerRecord<?, ?> record, EventEnvelope event, String store, Runnable write, Runnable remove) {
        long arrivedAt = StageRunner.versionTime(record, event);
        if (!documents.mayWrite(event.collection(), event.documentId(), store, arrivedAt)) {
            LOG.infof("%s: document %s not written: deleted after this version arrived, or a newer version is stored", store,
                    event.documentId());
            return false;
        }
        write.run();
        if (!documents.versionStored(event.collection(), event.documentId(), store, version(record, event), arrivedAt)) {
            LOG.infof("%s: document %s removed again: deleted after this version arrived, while it was written", store,
                    event.documentId());
            remove.run();
            return false;
        }
        return true;
    }

    /** Removes the document from the sink {@code store} for a delete, unless the store holds a version that arrived after the delete. */
    public boolean delete(ConsumerRecord<?, ?> record, EventEnvelope deleted, String store, Runnable remove) {
        return delete(record, deleted, java.util.List.of(store), remove);
    }

    /**
     * {@link #delete(ConsumerRecord, EventEnvelope, String, Runnable)} for stores that {@code remove} empties together
     * (Neo4j's chunks and entity graph): all or none, unless one holds a version that arrived after the delete.
     */
    public boolean delete(ConsumerRecord<?, ?> record, EventEnvelope deleted, java.util.List<String> stores, Runnable remove) {
        if (!documents.deleteVersion(deleted.collection(), deleted.documentId(), stores, StageRunner.versionTime(record, deleted))) {
            LOG.infof("%s: document %s kept: a version that arrived after the delete is stored", stores, deleted.documentId());
            return false;
        }
        remove.run();
        return true;
    }

    /** The version's name: its job and the time it arrived, as parsing fixed it (the same in every stage and store). */
    static String version(ConsumerRecord<?, ?> record, EventEnvelope event) {
        return event.jobId() + "@" + StageRunner.versionTime(record, event);
    }

    /** Updates the document's metadata in place when only it changed, and completes it in its job; false: not so. */
    public boolean updateIfOnlyMetadataChanged(ConsumerRecord<?, ?> record, DocumentParsed parsed) {
        Optional<DocumentMetadataStore.StoredVersion> stored = documents.storedVersion(parsed.collection(), parsed.documentId());
        if (stored.isEmpty() || stored.get().chunks() == 0 || !parsed.contentHash().equals(stored.get().contentHash())
                || !java.util.Objects.equals(parsed.title(), stored.get().title())) {
            return false;
        }
        Map<String, Object> metadata = Metadata.toJson(Metadata.normalise(parsed.metadata(), true));
        if (metadata.equals(Metadata.toJson(Metadata.normalise(stored.get().metadata(), true)))) {
            return false;
        }
        // recorded as held by every store before any is written, so that a delete made before it keeps it
        if (!documents.claimInPlace(parsed.collection(), parsed.documentId(), metadataStores, version(record, parsed) + IN_PLACE,
                StageRunner.versionTime(record, parsed))) {
            return false; // an older version is still on its way to some store, or was deleted: this one goes the whole way
        }
        int chunks = stored.get().chunks();
        if (lexical.replaceMetadata(parsed.collection(), parsed.documentId(), metadata) != chunks) {
            return false; // OpenSearch lacks some of its chunks: the whole pipeline writes them again
        }
        long inVectors = vectors.replaceMetadata(parsed.collection(), parsed.documentId(), metadata);
        if (inVectors != VectorIndex.KEEPS_NO_METADATA && inVectors != chunks) {
            return false;
        }
        documents.replaceMetadata(parsed.collection(), parsed.documentId(), metadata);
        runner.emitAllStatuses(finalStages.stream().map(stage -> new StageCompleted(EventEnvelope.CURRENT_SCHEMA_VERSION,
                Ids.newEventId(), parsed.documentId(), parsed.jobId(), parsed.collection(), stage, StageCompleted.STATUS, chunks,
                java.util.List.of(UPDATED))).toList());
        return true;
    }
}
