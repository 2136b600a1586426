package dev.openrag.mcp.memory;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.openrag.knowledge.llm.LlmRole;
import dev.openrag.knowledge.memory.LlmContradictions;
import dev.openrag.knowledge.memory.Memory;
import dev.openrag.knowledge.memory.MemoryHit;
import dev.openrag.knowledge.memory.MemoryQuery;
import dev.openrag.knowledge.port.MemoryStore;
import dev.openrag.knowledge.runtime.RoleModels;
import dev.openrag.mcp.McpSettings;
import io.quarkus.runtime.Startup;

/**
 * add_memory's check for the earlier memories a new one replaces when the caller names none
 * ({@code openrag.mcp.contradictions}: {@code off} by default, or {@code llm}): the scope's current
 * memories nearest to the new one, by the same hybrid search agents use, are shown to the
 * {@code memory} LLM role ({@link LlmContradictions}). Built at start-up, so a setting that cannot
 * work (an unknown value, a hosted provider without its key) stops the app with the setting to fix.
 * A check that fails (model unreachable, answer not the JSON asked for) replaces nothing and is
 * logged: the memory is added all the same.
 */
@Startup
@Singleton
public class ContradictionCheck {

    private static final Logger LOG = Logger.getLogger(ContradictionCheck.class);
    static final int MAX_CANDIDATES = 20;

    private final MemoryStore store;
    private final LlmContradictions model;
    private final int candidates;

    public ContradictionCheck(MemoryStore store, McpSettings settings, RoleModels models) {
        this.store = store;
        this.candidates = settings.contradictionCandidates();
        String mode = settings.contradictions().strip().toLowerCase(Locale.ROOT);
        this.model = switch (mode) {
            case "off" -> null;
            case "llm" -> new LlmContradictions(models.forRole(LlmRole.MEMORY));
            default -> throw new IllegalStateException("openrag.mcp.contradictions must be off or llm, got '" + settings.contradictions() + "'");
        };
        if (candidates < 1 || candidates > MAX_CANDIDATES) {
            throw new IllegalStateException("openrag.mcp.contradiction-candidates must be between 1 and " + MAX_CANDIDATES
                    + ", got " + candidates);
        }
        if (model != null) {
            LOG.infof("add_memory asks %s which of the %d nearest current memories a new one replaces", model.name(), candidates);
        }
    }

    public boolean enabled() {
        return model != null;
    }

    /** The ids of the scope's current memories that {@code memory} (not stored yet, embedded as {@code vector}) replaces. */
    public List<String> replacedBy(Memory memory, float[] vector, long now) {
        if (model == null) {
            return List.of();
        }
        List<Memory> nearest = store.search(new MemoryQuery(memory.scope(), memory.text(), vector, candidates, null, 0, false, null,
                null, null, now)).stream().map(MemoryHit::memory).filter(Objects::nonNull).toList();
        LlmContradictions.Result result = model.replaced(memory, nearest);
        if (result.problem() != null) {
            LOG.warnf("contradiction check of a new memory in scope %s: %s; it replaces none", memory.scope(), result.problem());
        }
        return result.replaced();
    }
}
