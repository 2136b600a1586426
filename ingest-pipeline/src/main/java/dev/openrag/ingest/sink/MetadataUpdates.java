package dev.openrag.ingest.sink;

import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

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
 */
@ApplicationScoped
public class MetadataUpdates {

    /** The warning a job shows for a document updated so. */
    public static final String UPDATED = "content unchanged: only its metadata was updated (not re-chunked or re-embedded)";

    private final DocumentMetadataStore documents;
    private final LexicalIndex lexical;
    private final VectorIndex vectors;
    private final StageRunner runner;
    private final java.util.List<String> finalStages;

    public MetadataUpdates(DocumentMetadataStore documents, LexicalIndex lexical, VectorIndex vectors, StageRunner runner,
                           @ConfigProperty(name = "openrag.vectors.backend", defaultValue = "neo4j") String vectorBackend) {
        this.documents = documents;
        this.lexical = lexical;
        this.vectors = vectors;
        this.runner = runner;
        this.finalStages = Stages.finalStages(vectorBackend);
    }

    /** Updates the document's metadata in place when only it changed, and completes it in its job; false: not so. */
    public boolean updateIfOnlyMetadataChanged(DocumentParsed parsed) {
        Optional<DocumentMetadataStore.StoredVersion> stored = documents.storedVersion(parsed.collection(), parsed.documentId());
        if (stored.isEmpty() || stored.get().chunks() == 0 || !parsed.contentHash().equals(stored.get().contentHash())
                || !java.util.Objects.equals(parsed.title(), stored.get().title())) {
            return false;
        }
        Map<String, Object> metadata = Metadata.toJson(Metadata.normalise(parsed.metadata(), true));
        if (metadata.equals(Metadata.toJson(Metadata.normalise(stored.get().metadata(), true)))) {
            return false;
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
