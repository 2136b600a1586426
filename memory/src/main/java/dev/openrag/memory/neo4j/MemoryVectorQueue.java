package dev.openrag.memory.neo4j;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import org.jboss.logging.Logger;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;
import org.neo4j.driver.exceptions.ServiceUnavailableException;
import org.neo4j.driver.exceptions.SessionExpiredException;
import org.neo4j.driver.exceptions.TransientException;


/**
 * Puts new memories into the {@code memory_embedding} vector index in batches, after their write
 * instead of in it. Lucene's vector index costs about 4 ms per committed transaction however few
 * vectors it takes (one memory a transaction or ten: 6.5 against 1.7 ms a memory,
 * docs/benchmarks.md), a quarter of an {@code add_memory}; a batch pays it once.
 *
 * <p>The memory words index ({@value MemorySchema#MEMORY_TEXT_INDEX}) takes them in the same batches:
 * Lucene flushes and refreshes its searcher once per transaction it applies, which with one memory a
 * transaction cost Neo4j about as much CPU as the adds' own statements (docs/benchmarks.md). The one
 * search that reads that index moves the queued memories in first ({@link #indexAll()}), so its words
 * are found at once too.
 *
 * <p>A memory is written as {@code (:Memory:}{@value MemorySchema#MEMORY_TO_INDEX}{@code )}; the
 * indexes hold {@code (:}{@value MemorySchema#INDEXED_MEMORY}{@code )} nodes only. {@link #queued()} schedules a
 * move of every queued memory to the indexed label a short delay later, so that the memories
 * written meanwhile share its transactions. Nothing is lost when the move fails or the app stops
 * first: the label is in Neo4j; a move that finds Neo4j away tries again every
 * {@link #RETRY_DELAY}, the next write or start moves them too, and until then the
 * only search that asks the index also scans the scope's queued memories exactly
 * ({@link Neo4jMemoryStore}'s {@code nearest}), so a new memory is found at once either way.
 */
final class MemoryVectorQueue {

    private static final Logger LOG = Logger.getLogger(MemoryVectorQueue.class);
    /** Memories labelled per transaction: one commit for many, and a bounded transaction. */
    static final int BATCH = 1000;

    private static final Executor BACKGROUND = Executors.newVirtualThreadPerTaskExecutor();

    /** How long a move that found Neo4j away waits before it tries again. */
    static final Duration RETRY_DELAY = Duration.ofSeconds(5);

    private final Driver driver;
    private final Executor delayed;
    private final Executor retry;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** One move at a time in this store ({@link #indexAll()}); another instance's move may still run beside it. */
    private final ReentrantLock moving = new ReentrantLock();

    /** @param delay how long a move waits for more memories (null: never on its own, only {@link #indexAll()}) */
    MemoryVectorQueue(Driver driver, Duration delay) {
        this.driver = driver;
        this.delayed = delay == null ? null : after(delay);
        this.retry = delay == null ? null : after(RETRY_DELAY);
    }

    private static Executor after(Duration delay) {
        return CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS, BACKGROUND);
    }

    /** Memories were queued: moves them (and any others queued) into the index soon, unless a move is already due. */
    void queued() {
        schedule(delayed);
    }

    private void schedule(Executor after) {
        if (after != null && scheduled.compareAndSet(false, true)) {
            after.execute(this::move);
        }
    }

    private void move() {
        scheduled.set(false); // before the move: a memory queued while it runs schedules the next one
        try {
            indexAll();
        } catch (ServiceUnavailableException | SessionExpiredException | TransientException e) {
            // Neo4j is away or busy: try again by itself, so that no further write is needed once it is back
            LOG.warnf("memories wait for the vector index, searchable meanwhile; trying again in %d s: %s",
                    RETRY_DELAY.toSeconds(), e.getMessage());
            schedule(retry);
        } catch (RuntimeException e) {
            LOG.warnf("memories wait for the vector index until the next write, searchable meanwhile: %s", e.getMessage());
        }
    }

    /**
     * Moves every queued memory into the vector index now; returns how many. One move at a time: a search's move
     * that ran beside the background one could find the memories neither queued nor yet indexed (the background
     * commit half applied), return at once, and then wait for an index refresh that does not yet include them.
     */
    int indexAll() {
        // a lock, not synchronized: the move waits on Neo4j, and a virtual thread blocked in a monitor pins its carrier (JDK < 24)
        moving.lock();
        int moved = 0;
        try (Session session = driver.session()) {
            while (true) {
                int batch = session.executeWrite(tx -> tx.run("MATCH (m:" + MemorySchema.MEMORY_TO_INDEX + ") WITH m LIMIT $batch "
                        + "REMOVE m:" + MemorySchema.MEMORY_TO_INDEX + " SET m:" + MemorySchema.INDEXED_MEMORY + " RETURN count(m) AS n",
                        Map.of("batch", BATCH)).single().get("n").asInt());
                moved += batch;
                if (batch < BATCH) {
                    return moved;
                }
            }
        } finally {
            moving.unlock();
        }
    }
}
