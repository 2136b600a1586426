package dev.openrag.knowledge.port;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;

import dev.openrag.knowledge.browse.DocumentText;

/** Each document's extracted text, current version only, for exact-span citations. */
public interface DocumentTexts {

    /** Replaces the document's text with this version's. */
    void put(DocumentText text);

    Optional<DocumentText> get(String collection, String documentId);

    /** The texts of several documents of a collection at once (those that have one). */
    Map<String, DocumentText> getAll(String collection, Collection<String> documentIds);
}
