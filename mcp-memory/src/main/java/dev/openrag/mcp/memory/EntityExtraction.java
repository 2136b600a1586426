package dev.openrag.mcp.memory;

import java.util.List;
import java.util.Locale;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.openrag.knowledge.contextual.LlmGraphExtractor;
import dev.openrag.mcp.McpSettings;
import dev.openrag.memory.MemoryEntities;
import dev.openrag.memory.runtime.MemoryLlm;
import io.quarkus.runtime.Startup;

/**
 * The entities add_memory links a new memory through ({@code openrag.mcp.entities}): {@code rules}
 * (the default: {@link MemoryEntities}, capitalised names, offline) or {@code llm}, which adds the
 * people, places, organisations and events the {@code memory} LLM role finds in the text (the
 * graph extractor's JSON shape and repair; at most {@value MemoryEntities#MAX_PER_MEMORY} names of
 * at most {@value #MAX_NAME_CHARS} characters). The rules run either way; a failed call leaves them
 * alone and is logged. Built at start-up, so a setting that cannot work stops the app.
 */
@Startup
@Singleton
public class EntityExtraction {

    private static final Logger LOG = Logger.getLogger(EntityExtraction.class);
    static final int MAX_NAME_CHARS = 100;

    private final LlmGraphExtractor model;

    public EntityExtraction(McpSettings settings, MemoryLlm memoryLlm) {
        this.model = switch (settings.entities().strip().toLowerCase(Locale.ROOT)) {
            case "rules" -> null;
            case "llm" -> new LlmGraphExtractor(memoryLlm.chat());
            default -> throw new IllegalStateException("openrag.mcp.entities must be rules or llm, got '" + settings.entities() + "'");
        };
        if (model != null) {
            LOG.infof("add_memory links memories through the entities %s finds, beside the rules'", model.name());
        }
    }

    /** The names the model finds in {@code text}; none when it is off or its answer cannot be had. */
    public List<String> names(String text) {
        if (model == null) {
            return List.of();
        }
        LlmGraphExtractor.Result result = model.extract(text);
        if (result.found() == null) {
            LOG.warnf("entity extraction of a new memory: %s; the rules' entities only", result.problem());
            return List.of();
        }
        return result.found().entities().stream().map(entity -> entity[0].strip())
                .filter(name -> !name.isEmpty() && name.length() <= MAX_NAME_CHARS).distinct()
                .limit(MemoryEntities.MAX_PER_MEMORY).toList();
    }
}
