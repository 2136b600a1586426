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

/**
 * The app's documents' texts on the real Neo4j, counting reads: a test can tell how often an answer read
 * whole texts ({@link #READS}, and the characters they held, {@link #CHARS}) and how often it read only
 * chunks' places ({@link #PLACE_READS}).
 */
@Alternative
@Priority(1)
@Singleton
public class CountedDocumentTexts implements DocumentTexts {

    public static final AtomicInteger READS = new AtomicInteger();
    public static final AtomicInteger PLACE_READS = new AtomicInteger();
    public static final java.util.concurrent.atomic.AtomicLong CHARS = new java.util.concurrent.atomic.AtomicLong();
    /** While set, whole-text reads wait for it (at most 20 s): a slow read of a long text. */
    public static volatile java.util.concurrent.CountDownLatch HOLD_WHOLE_TEXTS;

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
    public int sweepTombstones(long before, int limit) {
        return texts.sweepTombstones(before, limit);
    }

    @Override
    public List<String> rebuildMissing(String collection) {
        return texts.rebuildMissing(collection);
    }

    @Override
    public List<String> placeMissing(String collection) {
        return texts.placeMissing(collection);
    }

    @Override
    public Optional<DocumentText> get(String collection, String documentId) {
        READS.incrementAndGet();
        Optional<DocumentText> text = texts.get(collection, documentId);
        text.ifPresent(read -> CHARS.addAndGet(read.text().length()));
        return text;
    }

    @Override
    public Map<String, DocumentText> getAll(String collection, Collection<String> documentIds) {
        READS.incrementAndGet();
        java.util.concurrent.CountDownLatch hold = HOLD_WHOLE_TEXTS;
        if (hold != null) {
            try {
                hold.await(20, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the search gave up on the read
            }
        }
        Map<String, DocumentText> read = texts.getAll(collection, documentIds);
        read.values().forEach(text -> CHARS.addAndGet(text.text().length()));
        return read;
    }

    @Override
    public Places places(String collection, Collection<dev.openrag.knowledge.port.ChunkLookup.ChunkKey> chunks) {
        PLACE_READS.incrementAndGet();
        return texts.places(collection, chunks);
    }
}
