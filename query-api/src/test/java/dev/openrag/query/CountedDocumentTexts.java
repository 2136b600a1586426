package dev.openrag.query;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;

import org.neo4j.driver.Driver;

import dev.openrag.knowledge.browse.DocumentText;
import dev.openrag.knowledge.neo4j.Neo4jDocumentTexts;
import dev.openrag.knowledge.port.DocumentTexts;

/** The app's documents' texts on the real Neo4j, counting reads: a test can tell how often an answer read texts. */
@Alternative
@Priority(1)
@Singleton
public class CountedDocumentTexts implements DocumentTexts {

    public static final AtomicInteger READS = new AtomicInteger();

    private final DocumentTexts texts;

    public CountedDocumentTexts(Driver driver) {
        this.texts = new Neo4jDocumentTexts(driver);
    }

    @Override
    public boolean put(DocumentText text, long arrivedAt) {
        return texts.put(text, arrivedAt);
    }

    @Override
    public void delete(String collection, String documentId, long deletedAt) {
        texts.delete(collection, documentId, deletedAt);
    }

    @Override
    public List<String> rebuildMissing(String collection) {
        return texts.rebuildMissing(collection);
    }

    @Override
    public Optional<DocumentText> get(String collection, String documentId) {
        READS.incrementAndGet();
        return texts.get(collection, documentId);
    }

    @Override
    public Map<String, DocumentText> getAll(String collection, Collection<String> documentIds) {
        READS.incrementAndGet();
        return texts.getAll(collection, documentIds);
    }
}
