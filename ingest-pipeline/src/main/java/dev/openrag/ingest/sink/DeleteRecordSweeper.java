package dev.openrag.ingest.sink;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.openrag.knowledge.port.DocumentMetadataStore;
import dev.openrag.knowledge.port.DocumentTexts;
import io.quarkus.scheduler.Scheduled;

/**
 * Removes the records deletes leave behind (the per-store delete times on a document's version record, the
 * text's tombstone) once they are older than {@code openrag.ingest.delete-records.keep} (default 30 days).
 * They keep a version that arrived before the delete out when its event comes late (a lagging sink, a replay
 * of the topic); past the pipeline topics' retention (the broker's 7 days) none can, so the records only grow.
 * A dead letter redriven after that long is the one way left for such a version: it is written as any redrive.
 * Each sweep removes at most {@code openrag.ingest.delete-records.batch} of each, so none holds a long transaction.
 * A record a version entered after its delete is kept (that version is on its way); each store checks its conditions
 * again under the records' write locks when it removes them, so a write meanwhile keeps what it wrote.
 */
@ApplicationScoped
public class DeleteRecordSweeper {

    private static final Logger LOG = Logger.getLogger(DeleteRecordSweeper.class);

    private final DocumentMetadataStore versions;
    private final DocumentTexts texts;
    private final Duration keep;
    private final int batch;

    public DeleteRecordSweeper(DocumentMetadataStore versions, DocumentTexts texts,
                               @ConfigProperty(name = "openrag.ingest.delete-records.keep", defaultValue = "P30D") Duration keep,
                               @ConfigProperty(name = "openrag.ingest.delete-records.batch", defaultValue = "10000") int batch) {
        this.versions = versions;
        this.texts = texts;
        this.keep = keep;
        this.batch = batch;
    }

    @Scheduled(every = "${openrag.ingest.delete-records.sweep-interval:1h}", delayed = "5m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduledSweep() {
        try {
            sweep(System.currentTimeMillis());
        } catch (RuntimeException e) {
            LOG.warnf("delete-record sweep failed, will retry: %s", e.getMessage());
        }
    }

    /** One sweep as of {@code now}; how many records it removed. */
    public int sweep(long now) {
        long before = now - keep.toMillis();
        int removed = versions.sweepDeletes(before, batch) + texts.sweepTombstones(before, batch);
        if (removed > 0) {
            LOG.infof("removed %d delete records older than %s", removed, keep);
        }
        return removed;
    }
}
