package dev.openrag.mcp.memory;

import java.time.Clock;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import dev.openrag.mcp.security.ScopeGuard;
import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryStore;
import io.quarkiverse.mcp.server.ToolCallException;

/**
 * Finds a memory for a tool: unknown, expired and other-scope memories all read as "no memory
 * with id", so ids from another scope reveal nothing.
 */
@ApplicationScoped
public class Memories {

    private final MemoryStore store;
    private final ScopeGuard scopes;
    private final Clock clock;

    public Memories(MemoryStore store, ScopeGuard scopes, Clock clock) {
        this.store = store;
        this.scopes = scopes;
        this.clock = clock;
    }

    public Memory require(String id) {
        String memoryId = ToolArguments.id(id, "id");
        return find(memoryId).orElseThrow(() -> new ToolCallException("no memory with id '" + memoryId + "' (unknown, expired or deleted)"));
    }

    /** {@link #require} for a tool that changes the memory: a {@code read} key may not. */
    public Memory requireWritable(String id) {
        scopes.requireWrite();
        return require(id);
    }

    /** The memory if it exists, has not expired and the caller may see its scope. */
    public Optional<Memory> find(String id) {
        return store.get(id).filter(memory -> !memory.expiredAt(clock.millis()) && scopes.allows(memory.scope()));
    }
}
