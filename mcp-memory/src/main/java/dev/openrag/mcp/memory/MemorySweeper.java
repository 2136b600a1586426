package dev.openrag.mcp.memory;

import java.time.Clock;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.openrag.mcp.McpSettings;
import dev.openrag.memory.MemoryStore;
import io.quarkus.scheduler.Scheduled;

/**
 * Deletes expired memories and those forgotten longer ago than the retention period. Reads hide
 * them already (TTL is enforced at read time); the sweep only reclaims the space.
 */
@ApplicationScoped
public class MemorySweeper {

    private static final Logger LOG = Logger.getLogger(MemorySweeper.class);

    private final MemoryStore store;
    private final McpSettings settings;
    private final Clock clock;

    public MemorySweeper(MemoryStore store, McpSettings settings, Clock clock) {
        this.store = store;
        this.settings = settings;
        this.clock = clock;
    }

    @Scheduled(every = "${openrag.mcp.sweep-interval:60s}", delayed = "10s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduledSweep() {
        sweep();
    }

    /** Runs one sweep now; returns how many memories it removed. */
    public int sweep() {
        long now = clock.millis();
        try {
            int removed = store.sweep(now, now - settings.forgetRetention().toMillis());
            if (removed > 0) {
                LOG.infof("memory sweep removed %d expired or long-forgotten memories", removed);
            }
            return removed;
        } catch (RuntimeException e) {
            LOG.warnf("memory sweep failed, will retry: %s", e.getMessage());
            return 0;
        }
    }
}
