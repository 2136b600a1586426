package dev.openrag.memory.runtime;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.openrag.memory.FactChanges;
import dev.openrag.memory.LlmContradictions;
import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryEmbeddings;
import dev.openrag.memory.MemoryHit;
import dev.openrag.memory.MemoryQuery;
import dev.openrag.memory.MemoryStore;
import dev.openrag.memory.StatedFacts;
import io.quarkus.runtime.Startup;

/**
 * An add's check for the earlier memories a new one may replace when the caller names none
 * ({@code openrag.mcp.contradictions}, named for the MCP server where it began). Memory's policy, so MCP
 * {@code add_memory} and REST {@code POST /api/memories} suggest the same links; batch adds
 * ({@code add_memories}, {@code POST /api/memories/batch}) are imports and are not checked. What it finds is a suggestion, never a filter
 * ({@link FactChanges}): a {@code suggested_supersedes} link saying which fact and why, which the add
 * answer and the memory show, for the agent to confirm or dismiss. Search does not rank by it: which of two
 * memories answers a question first is decided by meaning and time ({@code NewerWins}). Only the caller's
 * {@code supersedes}, update, forget or correction hides a memory.
 * <ul>
 * <li>{@code rules} (the default, offline): a person's fact that holds one value at a time
 * ({@link StatedFacts}, English sentences: where someone lives, works, their age …) stated with another value than
 * one of the scope's current memories nearest to it (the same hybrid search agents use, its text with the
 * words such facts are written with); else, in any language, the nearest older memory by the same author that is close
 * to it in meaning and shares content words with it ({@link FactChanges#byMeaning}: the scope's
 * {@value FactChanges#NEAREST} nearest by vector, compared by both models' vectors, taken from the scope's copy in memory where it holds them). People are the scope's
 * speakers and names a memory introduces as people, never a product's name.</li>
 * <li>{@code llm}: the nearest current memories are shown to the {@code memory} LLM role
 * ({@link LlmContradictions}), which reads any kind of fact. A check that fails (model
 * unreachable, answer not the JSON asked for) suggests nothing and is logged: the memory is added
 * all the same.</li>
 * <li>{@code off}: only the caller's {@code supersedes}.</li>
 * </ul>
 * Built at start-up, so a setting that cannot work (an unknown value, a hosted provider without its
 * key) stops the app with the setting to fix.
 */
@Startup
@Singleton
public class ContradictionCheck {

    private static final Logger LOG = Logger.getLogger(ContradictionCheck.class);
    static final int MAX_CANDIDATES = 20;

    private final MemoryStore store;
    private final String mode;
    private final LlmContradictions model;
    private final int candidates;

    public ContradictionCheck(MemoryStore store, MemoryLlm memoryLlm,
                              @ConfigProperty(name = "openrag.mcp.contradictions", defaultValue = "rules") String mode,
                              @ConfigProperty(name = "openrag.mcp.contradiction-candidates", defaultValue = "5") int candidates) {
        this.store = store;
        this.candidates = candidates;
        this.mode = mode.strip().toLowerCase(Locale.ROOT);
        this.model = switch (mode) {
            case "off", "rules" -> null;
            case "llm" -> new LlmContradictions(memoryLlm.chat());
            default -> throw new IllegalStateException("openrag.mcp.contradictions must be off, rules or llm, got '"
                    + mode + "'");
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
        return !mode.equals("off");
    }

    /**
     * {@code memory} with a {@code suggested_supersedes} link to each earlier memory it may replace; unchanged when the
     * check is off or the caller named what it supersedes.
     */
    public Memory withSuggestions(Memory memory, float[] vector, float[] second, long now) {
        if (!enabled() || memory.links().stream().anyMatch(link -> Memory.SUPERSEDES.equals(link.type()))) {
            return memory;
        }
        return memory.linking(suggestedBy(memory, vector, second, now).stream().map(FactChanges.Suggestion::link).toList());
    }

    /**
     * What the scope's current memories {@code memory} (not stored yet, embedded as {@code vector} by the first model
     * and {@code second} by the second, null: none) may replace.
     */
    public List<FactChanges.Suggestion> suggestedBy(Memory memory, float[] vector, float[] second, long now) {
        if (mode.equals("rules")) {
            StatedFacts.People people = StatedFacts.People.of(store.speakers(memory.scope()), memory.speaker());
            List<StatedFacts.Fact> facts = StatedFacts.of(memory.text(), memory.speaker(), people);
            if (!facts.isEmpty()) {
                List<FactChanges.Suggestion> stated = FactChanges.byRules(memory,
                        nearest(memory, memory.text() + " " + StatedFacts.cues(facts), vector, MAX_CANDIDATES, now), people);
                if (!stated.isEmpty()) {
                    return stated;
                }
            }
            if (second == null) {
                return List.of();
            }
            List<Memory> near = store.search(MemoryQuery.byVector(memory.scope(), vector, FactChanges.NEAREST, null, 0, false, now)).stream()
                    .map(MemoryHit::memory).filter(Objects::nonNull).toList();
            // from the scope's copy the search just used, where it holds them (no read)
            Map<String, MemoryEmbeddings.Vectors> held = store.vectors(memory.scope(), near.stream().map(Memory::id).toList());
            return FactChanges.byMeaning(memory, vector, second, near.stream().map(old -> {
                MemoryEmbeddings.Vectors its = held.get(old.id());
                return new FactChanges.Near(old, its == null ? null : its.first(), its == null ? null : its.second());
            }).toList());
        }
        if (model == null) {
            return List.of();
        }
        List<Memory> nearest = nearest(memory, memory.text(), vector, candidates, now);
        LlmContradictions.Result result = model.replaced(memory, nearest);
        if (result.problem() != null) {
            LOG.warnf("contradiction check of a new memory in scope %s: %s; it suggests none", memory.scope(), result.problem());
        }
        List<Memory> replaced = nearest.stream().filter(old -> result.replaced().contains(old.id())).toList();
        return FactChanges.byModel(memory, replaced, model.name());
    }

    private List<Memory> nearest(Memory memory, String text, float[] vector, int k, long now) {
        return store.search(new MemoryQuery(memory.scope(), text, vector, k, null, 0, false, null, null, null, now)).stream()
                .map(MemoryHit::memory).filter(Objects::nonNull).toList();
    }
}
