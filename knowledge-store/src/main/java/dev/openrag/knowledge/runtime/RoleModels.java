package dev.openrag.knowledge.runtime;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.openrag.knowledge.llm.LanguageModels;
import dev.openrag.knowledge.llm.LlmRole;
import dev.openrag.knowledge.llm.LlmSettings;
import dev.openrag.knowledge.port.ChatModel;
import dev.openrag.knowledge.settings.CollectionSettings.ModelChoice;

/**
 * The chat model of each LLM role, built on first use from {@link LlmConfig}: a role no stage
 * uses never needs a key or a reachable server. One instance per role (and per provider and model
 * a collection chose for it), so its in-flight bound holds across all documents.
 */
@ApplicationScoped
public class RoleModels {

    private static final Logger LOG = Logger.getLogger(RoleModels.class);

    private final LlmConfig config;
    private final OllamaConfig ollama;
    private final Map<String, ChatModel> models = new ConcurrentHashMap<>();

    public RoleModels(LlmConfig config, OllamaConfig ollama) {
        this.config = config;
        this.ollama = ollama;
    }

    public ChatModel forRole(LlmRole role) {
        return forRole(role, null);
    }

    /** The role's model, or the provider and model a collection chose for it (null: the role's own). */
    public ChatModel forRole(LlmRole role, ModelChoice choice) {
        return model(role.id(), choice, () -> settings(role, choice));
    }

    /**
     * The model of another module's role {@code id}, configured as {@code configured} under {@code openrag.llm.<id>}
     * (memory's role), built and bounded as the knowledge roles' are.
     */
    public ChatModel forRole(String id, LlmConfig.Role configured) {
        return model(id, null, () -> LlmConfig.settings(id, configured, ollama, null));
    }

    private ChatModel model(String id, ModelChoice choice, Supplier<LlmSettings> settings) {
        String key = id + (choice == null ? "" : " " + choice.provider() + " " + choice.model());
        return models.computeIfAbsent(key, k -> {
            LlmSettings resolved = settings.get();
            LOG.infof("LLM role %s: %s", id, resolved);
            return LanguageModels.chat(resolved);
        });
    }

    /** The settings a role would use, refused (IllegalStateException naming what to set) when they cannot work. */
    public LlmSettings settings(LlmRole role, ModelChoice choice) {
        return config.settings(role, ollama, choice);
    }
}
