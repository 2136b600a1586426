package dev.openrag.mcp.memory;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import dev.openrag.memory.DeadlineMemoryStore;
import dev.openrag.memory.MemoryStore;
import dev.openrag.memory.neo4j.Neo4jMemoryStore;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * How memory searches found their scope's in-memory copy, at {@code /q/metrics}:
 * {@code openrag_memory_copy_searches_total{found="current|own_writes|caught_up|read_now|none"}}, and
 * {@code openrag_memory_copies_memories}, the memories the copies hold. A rising {@code none} means searches without a
 * current copy: a scope over the copies' budget, or written through other instances faster than their writes can be
 * read back. Such a scope of at most the exact-scan limit is read for the search alone, within the copies' budget, and
 * ranks as from a copy; a bigger one (or any past that budget) is answered by Neo4j's indexes without the copy's lists,
 * so ranks otherwise than from a copy.
 */
@Singleton
public class MemoryCopyMetrics implements MeterBinder {

    private final MemoryStore store;
    private final List<Meter> meters = new CopyOnWriteArrayList<>();
    private volatile MeterRegistry registry;

    public MemoryCopyMetrics(MemoryStore store) {
        this.store = store;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        MemoryStore behind = store instanceof DeadlineMemoryStore deadline ? deadline.store() : store;
        if (!(behind instanceof Neo4jMemoryStore neo4j)) {
            return;
        }
        this.registry = registry;
        for (String found : neo4j.copyFindings().keySet()) {
            meters.add(FunctionCounter.builder("openrag.memory.copy.searches", neo4j, s -> s.copyFindings().get(found))
                    .tag("found", found)
                    .description("Memory searches by how they found their scope's in-memory copy")
                    .register(registry));
        }
        meters.add(Gauge.builder("openrag.memory.copies.memories", neo4j, Neo4jMemoryStore::memoriesInMemory)
                .description("Memories held in the scopes' in-memory copies")
                .register(registry));
    }

    /** Micrometer's global registry outlives an application restarted in the same JVM: the meters go with the bean. */
    @PreDestroy
    void close() {
        if (registry != null) {
            meters.forEach(registry::remove);
        }
    }
}
