package dev.openrag.memory.runtime;

import jakarta.enterprise.context.ApplicationScoped;

import dev.openrag.knowledge.port.ChatModel;
import dev.openrag.knowledge.runtime.LlmConfig;
import dev.openrag.knowledge.runtime.RoleModels;
import io.smallrye.config.ConfigMapping;

/**
 * Memory's LLM role, {@code memory}: it tells which earlier memories a new one replaces
 * ({@code openrag.mcp.contradictions=llm}) and which entities a memory mentions ({@code openrag.mcp.entities=llm}).
 * Its settings are {@code openrag.llm.memory.*} (docs/llm.md), resolved and built as knowledge-store's roles are
 * ({@link RoleModels}): the same provider defaults, Ollama fallbacks, key variables, timeout, concurrency and retries.
 */
@ApplicationScoped
public class MemoryLlm {

    /** The role's name in settings and logs. */
    public static final String ROLE = "memory";

    /** {@code openrag.llm.memory.*}. */
    @ConfigMapping(prefix = "openrag.llm." + ROLE)
    public interface Settings extends LlmConfig.Role {
    }

    private final RoleModels models;
    private final Settings settings;

    public MemoryLlm(RoleModels models, Settings settings) {
        this.models = models;
        this.settings = settings;
    }

    /**
     * The role's model, built on first use: an app that never asks it needs no key or reachable server; one that
     * does and cannot have it (a hosted provider without its key) is refused with the setting to fix.
     */
    public ChatModel chat() {
        return models.forRole(ROLE, settings);
    }
}
