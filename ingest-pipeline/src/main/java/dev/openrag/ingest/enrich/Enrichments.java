package dev.openrag.ingest.enrich;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.openrag.knowledge.contextual.LlmContextualizer;
import dev.openrag.knowledge.contextual.LlmGraphExtractor;
import dev.openrag.knowledge.contextual.StructuralContextualizer;
import dev.openrag.knowledge.llm.LlmRole;
import dev.openrag.knowledge.port.CollectionSettingsStore;
import dev.openrag.knowledge.port.Contextualizer;
import dev.openrag.knowledge.port.SectionSummarizer;
import dev.openrag.knowledge.runtime.RoleModels;
import dev.openrag.knowledge.settings.CollectionSettings;
import dev.openrag.knowledge.settings.CollectionSettings.ModelChoice;
import dev.openrag.knowledge.summary.ChatSummarizer;
import dev.openrag.knowledge.summary.ExtractiveSummarizer;

/**
 * Which enrichments each collection's documents get, and with which models: the collection's
 * stored settings ({@code PUT /api/collections/{name}/settings}), else
 * {@code openrag.collections.<name>.contextualizer}, else the app's defaults
 * ({@code openrag.contextualizer}, {@code openrag.graph.extractor}, {@code openrag.sections.summarizer}
 * and {@code openrag.sections.summaries}). Stored settings are re-read at most every
 * {@code openrag.collections.settings-refresh} (5 s), so every instance sees a change within it;
 * while Neo4j is down the last settings read stay in force. One contextualizer, extractor and
 * summarizer per mode and model, made on first use (an LLM client only exists when asked for).
 */
@ApplicationScoped
public class Enrichments {

    /** The older name of "llm" in every setting, from when Ollama was the only provider. */
    static final String OLLAMA = "ollama";

    private final CollectionSettingsStore store;
    private final RoleModels models;
    private final CollectionSettings defaults;
    private final Duration refresh;
    private final Map<String, Read> reads = new ConcurrentHashMap<>();
    private final Map<String, Object> instances = new ConcurrentHashMap<>();

    private record Read(CollectionSettings settings, long atNanos) {
    }

    public Enrichments(CollectionSettingsStore store, RoleModels models,
                       @ConfigProperty(name = "openrag.contextualizer", defaultValue = "structural") String contextualizer,
                       @ConfigProperty(name = "openrag.graph.extractor", defaultValue = "rules") String graphExtractor,
                       @ConfigProperty(name = "openrag.sections.summarizer", defaultValue = "extractive") String summarizer,
                       @ConfigProperty(name = "openrag.sections.summaries", defaultValue = "true") boolean summaries,
                       @ConfigProperty(name = "openrag.collections.settings-refresh", defaultValue = "PT5S") Duration refresh) {
        this.store = store;
        this.models = models;
        this.refresh = refresh;
        this.defaults = checked(new CollectionSettings(modern(contextualizer), modern(graphExtractor),
                summaries ? modern(summarizer) : "off", Map.of()), "openrag.contextualizer, openrag.graph.extractor or openrag.sections.summarizer");
    }

    /** The settings in force for a collection, every field filled in. */
    public CollectionSettings effective(String collection) {
        CollectionSettings stored = stored(collection);
        String legacy = ConfigProvider.getConfig()
                .getOptionalValue("openrag.collections." + collection + ".contextualizer", String.class).map(Enrichments::modern)
                .orElse(null);
        return new CollectionSettings(
                first(stored.contextualizer(), legacy, defaults.contextualizer()),
                first(stored.graphExtractor(), defaults.graphExtractor()),
                first(stored.summaries(), defaults.summaries()),
                stored.models() == null ? Map.of() : stored.models());
    }

    /** Stores a collection's settings after checking them, and that every LLM they name can be built. */
    public CollectionSettings save(String collection, CollectionSettings settings) {
        CollectionSettings valid = settings.validated();
        requireUsable(mergedWithDefaults(valid));
        store.save(collection, valid);
        reads.put(collection, new Read(valid, System.nanoTime()));
        return effective(collection);
    }

    public Contextualizer contextualizer(String collection) {
        CollectionSettings settings = effective(collection);
        return switch (settings.contextualizer()) {
            case "llm" -> instance("contextualizer", settings.model(LlmRole.CONTEXTUALIZER),
                    choice -> new LlmContextualizer(models.forRole(LlmRole.CONTEXTUALIZER, choice), 24_000));
            case "none" -> instance("none", null, choice -> new NoContext());
            default -> instance("structural", null, choice -> new StructuralContextualizer());
        };
    }

    /** The LLM extractor for a collection, or empty when its graph comes from the rules alone. */
    public Optional<LlmGraphExtractor> graphExtractor(String collection) {
        CollectionSettings settings = effective(collection);
        if (!"llm".equals(settings.graphExtractor())) {
            return Optional.empty();
        }
        return Optional.of(instance("graph", settings.model(LlmRole.GRAPH_EXTRACTOR),
                choice -> new LlmGraphExtractor(models.forRole(LlmRole.GRAPH_EXTRACTOR, choice))));
    }

    /** The section summarizer for a collection, or empty when it has no summaries ("off"). */
    public Optional<SectionSummarizer> summarizer(String collection) {
        CollectionSettings settings = effective(collection);
        return switch (settings.summaries()) {
            case "off" -> Optional.empty();
            case "llm" -> Optional.of(instance("summarizer", settings.model(LlmRole.SUMMARIZER),
                    choice -> new ChatSummarizer(models.forRole(LlmRole.SUMMARIZER, choice))));
            default -> Optional.of(instance("extractive", null, choice -> new ExtractiveSummarizer()));
        };
    }

    private CollectionSettings stored(String collection) {
        Read read = reads.get(collection);
        if (read != null && System.nanoTime() - read.atNanos() < refresh.toNanos()) {
            return read.settings();
        }
        try {
            CollectionSettings settings = store.find(collection).orElse(CollectionSettings.DEFAULTS);
            reads.put(collection, new Read(settings, System.nanoTime()));
            return settings;
        } catch (RuntimeException e) {
            if (read != null) {
                return read.settings(); // Neo4j is down: what was in force stays in force
            }
            throw e; // never read: the stage waits for Neo4j rather than guess
        }
    }

    private CollectionSettings mergedWithDefaults(CollectionSettings settings) {
        return new CollectionSettings(first(settings.contextualizer(), defaults.contextualizer()),
                first(settings.graphExtractor(), defaults.graphExtractor()), first(settings.summaries(), defaults.summaries()),
                settings.models());
    }

    /** Every role the settings send to an LLM must resolve (provider known, key present). */
    private void requireUsable(CollectionSettings settings) {
        if ("llm".equals(settings.contextualizer())) {
            models.settings(LlmRole.CONTEXTUALIZER, settings.model(LlmRole.CONTEXTUALIZER));
        }
        if ("llm".equals(settings.graphExtractor())) {
            models.settings(LlmRole.GRAPH_EXTRACTOR, settings.model(LlmRole.GRAPH_EXTRACTOR));
        }
        if ("llm".equals(settings.summaries())) {
            models.settings(LlmRole.SUMMARIZER, settings.model(LlmRole.SUMMARIZER));
        }
    }

    @SuppressWarnings("unchecked")
    private <T> T instance(String kind, ModelChoice choice, java.util.function.Function<ModelChoice, T> make) {
        String key = kind + (choice == null ? "" : " " + choice.provider() + " " + choice.model());
        return (T) instances.computeIfAbsent(key, k -> make.apply(choice));
    }

    private static CollectionSettings checked(CollectionSettings settings, String keys) {
        try {
            return settings.validated();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(keys + ": " + e.getMessage(), e);
        }
    }

    private static String modern(String mode) {
        return OLLAMA.equals(mode) ? "llm" : mode;
    }

    private static String first(String... values) {
        for (String value : values) {
            if (value != null) {
                return value;
            }
        }
        return null;
    }
}
