package dev.openrag.knowledge.runtime;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.openrag.knowledge.llm.LanguageModels;
import dev.openrag.knowledge.llm.LlmRole;
import dev.openrag.knowledge.llm.LlmSettings;
import dev.openrag.knowledge.port.ChatModel;

/**
 * The chat model of each LLM role, built on first use from {@link LlmConfig}: a role no stage
 * uses never needs a key or a reachable server. One instance per role, so its in-flight bound
 * holds across all documents.
 */
@ApplicationScoped
public class RoleModels {

    private static final Logger LOG = Logger.getLogger(RoleModels.class);

    private final LlmConfig config;
    private final OllamaConfig ollama;
    private final Map<LlmRole, ChatModel> models = new ConcurrentHashMap<>();

    public RoleModels(LlmConfig config, OllamaConfig ollama) {
        this.config = config;
        this.ollama = ollama;
    }

    public ChatModel forRole(LlmRole role) {
        return models.computeIfAbsent(role, r -> {
            LlmSettings settings = config.settings(r, ollama);
            LOG.infof("LLM role %s: %s", r.id(), settings);
            return LanguageModels.chat(settings);
        });
    }

    public LlmSettings settings(LlmRole role) {
        return config.settings(role, ollama);
    }
}
