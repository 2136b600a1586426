package dev.openrag.knowledge.port;

import java.util.List;
import java.util.Optional;

import dev.openrag.knowledge.browse.CollectionSummary;
import dev.openrag.knowledge.browse.DocumentDetail;
import dev.openrag.knowledge.browse.DocumentSummary;
import dev.openrag.knowledge.browse.Neighbourhood;
import dev.openrag.knowledge.filter.DocumentFilter;

/** The read side of the graph for people and UIs: collections, documents, chunks, neighbourhoods. */
public interface KnowledgeBrowser {

    List<CollectionSummary> collections();

    /** Documents of a collection by title, optionally those whose title or uri contains {@code filter}. */
    default List<DocumentSummary> documents(String collection, String filter, int offset, int limit) {
        return documents(collection, filter, null, offset, limit);
    }

    default long countDocuments(String collection, String filter) {
        return countDocuments(collection, filter, null);
    }

    /** As above, and only documents whose metadata {@code metadata} selects (null: any). */
    List<DocumentSummary> documents(String collection, String filter, DocumentFilter metadata, int offset, int limit);

    long countDocuments(String collection, String filter, DocumentFilter metadata);

    Optional<DocumentDetail> document(String collection, String documentId);

    /** Entities and chunks within {@code hops} of an entity (by name or uid); empty when unknown. */
    Optional<Neighbourhood> entityNeighbourhood(String collection, String entity, int hops, int limit);

    /** A document, its sections and chunks, and the entities its chunks mention. */
    Optional<Neighbourhood> documentNeighbourhood(String collection, String documentId, int limit);
}
