package dev.openrag.mcp.memory;

import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import jakarta.inject.Singleton;

import dev.openrag.knowledge.port.Correction;
import dev.openrag.knowledge.port.CorrectionStore;
import dev.openrag.knowledge.port.Embedder;
import dev.openrag.mcp.EngineOutagesAsToolErrors;
import dev.openrag.mcp.McpSettings;
import dev.openrag.mcp.security.ScopeGuard;
import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryStore;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.ToolCallException;

/**
 * Corrections: a fix for a knowledge chunk, a memory or the answer to a query. query-api returns
 * them with later related searches (similar query, or the corrected chunk among the results) and
 * puts them into answers ahead of the sources.
 */
@Singleton
@EngineOutagesAsToolErrors
public class CorrectionTools {

    /** list_corrections' answer, newest first. */
    public record Corrections(List<Correction> corrections) {
    }

    private final MemoryStore store;
    private final CorrectionStore corrections;
    private final Embedder embedder;
    private final ScopeGuard scopes;
    private final Memories memories;
    private final McpSettings settings;
    private final Clock clock;

    public CorrectionTools(MemoryStore store, CorrectionStore corrections, Embedder embedder, ScopeGuard scopes, Memories memories,
                           McpSettings settings, Clock clock) {
        this.store = store;
        this.corrections = corrections;
        this.embedder = embedder;
        this.scopes = scopes;
        this.memories = memories;
        this.settings = settings;
        this.clock = clock;
    }

    @Tool(name = "submit_correction", description = "Correct what the knowledge base or a memory says. Give what it is "
            + "about: the query it answers wrongly, the chunkId of a search result, or a memoryId.")
    public Correction submitCorrection(
            @ToolArg(description = "The correct statement") String correction,
            @ToolArg(description = "Scope the correction belongs to") String scope,
            @ToolArg(description = "The question this corrects the answer to", required = false) String query,
            @ToolArg(description = "chunkId of the search result being corrected", required = false) String chunkId,
            @ToolArg(description = "Id of the memory being corrected", required = false) String memoryId) {
        String text = ToolArguments.text(correction, "correction", settings.maxTextChars());
        String target = scopes.requireWritable(scope);
        if (Stream.of(query, chunkId, memoryId).allMatch(value -> value == null || value.isBlank())) {
            throw new ToolCallException("say what is corrected: give 'query', 'chunkId' or 'memoryId'");
        }
        String question = query == null || query.isBlank() ? null : ToolArguments.text(query, "query", settings.maxTextChars());
        if (chunkId != null) {
            // the chunk's collection must be granted, checked first so that a refusal says nothing of what exists
            int slash = chunkId.indexOf('/');
            if (slash <= 0) {
                throw new ToolCallException("no chunk with id '" + chunkId + "' (chunk ids look like collection/documentId#index)");
            }
            scopes.collection(chunkId.substring(0, slash));
            if (!corrections.chunkExists(chunkId)) {
                throw new ToolCallException("no chunk with id '" + chunkId + "' (chunk ids look like collection/documentId#index)");
            }
        }
        if (memoryId != null) {
            Memory memory = memories.require(memoryId);
            if (!memory.scope().equals(target)) {
                throw new ToolCallException("no memory with id '" + memoryId + "' in scope '" + target + "'");
            }
        }
        // matched against later queries: the question when there is one, else the correction itself
        float[] embedding = embedder.embedQuery(question != null ? question : text);
        Correction made = new Correction(UUID.randomUUID().toString(), target, text, question, chunkId, memoryId, clock.millis(), null);
        // a correction of a memory is memory's to write (it ends the memory's validity); the others are knowledge's
        return memoryId != null ? store.correct(made, embedding) : corrections.add(made, embedding);
    }

    @Tool(name = "list_corrections", description = "The corrections of a scope, newest first.")
    public Corrections listCorrections(@ToolArg(description = "Scope") String scope) {
        return new Corrections(corrections.corrections(scopes.require(scope)));
    }
}
