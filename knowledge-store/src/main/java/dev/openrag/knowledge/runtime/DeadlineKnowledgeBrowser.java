package dev.openrag.knowledge.runtime;

import java.util.List;
import java.util.Optional;

import dev.openrag.knowledge.browse.CollectionSummary;
import dev.openrag.knowledge.browse.DocumentDetail;
import dev.openrag.knowledge.browse.DocumentSummary;
import dev.openrag.knowledge.browse.Neighbourhood;
import dev.openrag.knowledge.port.EngineUnavailableException;
import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.knowledge.port.KnowledgeBrowser;

/** A {@link KnowledgeBrowser} (Neo4j's) whose every read keeps the {@link ReadDeadline}. */
public final class DeadlineKnowledgeBrowser implements KnowledgeBrowser {

    private static final String ENGINE = EngineUnavailableException.NEO4J;

    private final KnowledgeBrowser browser;
    private final ReadDeadline deadline;

    public DeadlineKnowledgeBrowser(KnowledgeBrowser browser, ReadDeadline deadline) {
        this.browser = browser;
        this.deadline = deadline;
    }

    @Override
    public List<CollectionSummary> collections() {
        return deadline.call(ENGINE, browser::collections);
    }

    @Override
    public List<DocumentSummary> documents(String collection, String filter, DocumentFilter metadata, int offset, int limit) {
        return deadline.call(ENGINE, () -> browser.documents(collection, filter, metadata, offset, limit));
    }

    @Override
    public long countDocuments(String collection, String filter, DocumentFilter metadata) {
        return deadline.call(ENGINE, () -> browser.countDocuments(collection, filter, metadata));
    }

    @Override
    public Optional<DocumentDetail> document(String collection, String documentId) {
        return deadline.call(ENGINE, () -> browser.document(collection, documentId));
    }

    @Override
    public Optional<Neighbourhood> entityNeighbourhood(String collection, String entity, int hops, int limit) {
        return deadline.call(ENGINE, () -> browser.entityNeighbourhood(collection, entity, hops, limit));
    }

    @Override
    public Optional<Neighbourhood> documentNeighbourhood(String collection, String documentId, int limit) {
        return deadline.call(ENGINE, () -> browser.documentNeighbourhood(collection, documentId, limit));
    }
}
