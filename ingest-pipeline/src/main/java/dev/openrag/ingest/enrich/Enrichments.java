package dev.openrag.ingest.enrich;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.openrag.ingest.job.JobSpend;
import dev.openrag.ingest.job.JobStatus;
import dev.openrag.knowledge.contextual.LlmContextualizer;
import dev.openrag.knowledge.contextual.LlmGraphExtractor;
import dev.openrag.knowledge.contextual.StructuralContextualizer;
import dev.openrag.knowledge.llm.LlmRole;
import dev.openrag.knowledge.port.CollectionSettingsStore;
import dev.openrag.knowledge.port.Contextualizer;
import dev.openrag.knowledge.port.SectionSummarizer;
import dev.openrag.knowledge.runtime.Prices;
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
 * and {@code openrag.sections.summaries}). Stored settings are re-read in the background once
 * older than {@code openrag.collections.settings-refresh} (5 s), so every instance sees a change
 * soon after it; while Neo4j is down the last settings read stay in force. One contextualizer, extractor and
 * summarizer per mode and model, made on first use (an LLM client only exists when asked for).
 * <p>
 * A collection's {@code budget} caps what each job may spend on LLM enrichment: once a job's
 * spend (from its status events) reaches it, its next documents get the offline enrichment and a
 * warning saying why. Documents already at an LLM stage finish there, so a job can overshoot by
 * what the documents in flight spend.
 */
@ApplicationScoped
public class Enrichments {

    /** The older name of "llm" in every setting, from when Ollama was the only provider. */
    static final String OLLAMA = "ollama";
    private static final Logger LOG = Logger.getLogger(Enrichments.class);

    private final CollectionSettingsStore store;
    private final RoleModels models;
    private final JobSpend jobs;
    private final Prices prices;
    private final CollectionSettings defaults;
    private final Duration refresh;
    private final Map<String, Read> reads = new ConcurrentHashMap<>();
    private final Set<String> refreshing = ConcurrentHashMap.newKeySet();
    private final ExecutorService refresher = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, Object> instances = new ConcurrentHashMap<>();

    private record Read(CollectionSettings settings, long atNanos) {
    }

    /** The enricher a document gets, and why it is not the one its collection asked for (empty when it is). */
    public record Pick<T>(T enricher, List<String> warnings) {
    }

    public Enrichments(CollectionSettingsStore store, RoleModels models, JobSpend jobs, Prices prices,
                       @ConfigProperty(name = "openrag.contextualizer", defaultValue = "structural") String contextualizer,
                       @ConfigProperty(name = "openrag.graph.extractor", defaultValue = "rules") String graphExtractor,
                       @ConfigProperty(name = "openrag.sections.summarizer", defaultValue = "extractive") String summarizer,
                       @ConfigProperty(name = "openrag.sections.summaries", defaultValue = "true") boolean summaries,
                       @ConfigProperty(name = "openrag.collections.settings-refresh", defaultValue = "PT5S") Duration refresh) {
        this.store = store;
        this.models = models;
        this.jobs = jobs;
        this.prices = prices;
        this.refresh = refresh;
        this.defaults = checked(new CollectionSettings(modern(contextualizer), modern(graphExtractor),
                summaries ? modern(summarizer) : "off", Map.of()), "openrag.contextualizer, openrag.graph.extractor or openrag.sections.summarizer");
    }

    /** The settings in force for a collection, every field filled in. */
    public CollectionSettings effective(String collection) {
        return withDefaults(collection, stored(collection));
    }

    /** Stores a collection's settings after checking them, and that every LLM they name can be built. */
    public CollectionSettings save(String collection, CollectionSettings settings) {
        CollectionSettings valid = settings.validated();
        requireUsable(withDefaults(collection, valid), valid.budget() != null && valid.budget().maxCost() != null);
        store.save(collection, valid);
        reads.put(collection, new Read(valid, System.nanoTime()));
        return effective(collection);
    }

    public Pick<Contextualizer> contextualizer(String collection, String jobId) {
        CollectionSettings settings = effective(collection);
        return switch (settings.contextualizer()) {
            case "llm" -> withinBudget(settings, jobId, "structural contexts",
                    () -> instance("contextualizer", settings.model(LlmRole.CONTEXTUALIZER),
                            choice -> new LlmContextualizer(models.forRole(LlmRole.CONTEXTUALIZER, choice), 24_000)),
                    () -> instance("structural", null, choice -> new StructuralContextualizer()));
            case "none" -> new Pick<>(instance("none", null, choice -> new NoContext()), List.of());
            default -> new Pick<>(instance("structural", null, choice -> new StructuralContextualizer()), List.of());
        };
    }

    /** The LLM extractor for a collection, or null when its graph comes from the rules alone. */
    public Pick<LlmGraphExtractor> graphExtractor(String collection, String jobId) {
        CollectionSettings settings = effective(collection);
        if (!"llm".equals(settings.graphExtractor())) {
            return new Pick<>(null, List.of());
        }
        return withinBudget(settings, jobId, "the rule-based graph",
                () -> instance("graph", settings.model(LlmRole.GRAPH_EXTRACTOR),
                        choice -> new LlmGraphExtractor(models.forRole(LlmRole.GRAPH_EXTRACTOR, choice))),
                () -> null);
    }

    /** The section summarizer for a collection, or null when it has no summaries ("off"). */
    public Pick<SectionSummarizer> summarizer(String collection, String jobId) {
        CollectionSettings settings = effective(collection);
        Supplier<SectionSummarizer> extractive = () -> instance("extractive", null, choice -> new ExtractiveSummarizer());
        return switch (settings.summaries()) {
            case "off" -> new Pick<>(null, List.of());
            case "llm" -> withinBudget(settings, jobId, "extractive summaries",
                    () -> instance("summarizer", settings.model(LlmRole.SUMMARIZER),
                            choice -> new ChatSummarizer(models.forRole(LlmRole.SUMMARIZER, choice))),
                    extractive);
            default -> new Pick<>(extractive.get(), List.of());
        };
    }

    /** The LLM enricher while the job is within its collection's budget, else the offline one and a warning. */
    private <T> Pick<T> withinBudget(CollectionSettings settings, String jobId, String offlineName, Supplier<T> llm,
                                     Supplier<T> offline) {
        Optional<String> reached = budgetReached(settings.budget(), jobId);
        return reached.map(why -> new Pick<>(offline.get(), List.of(why + ": " + offlineName + " instead of the LLM's")))
                .orElseGet(() -> new Pick<>(llm.get(), List.of()));
    }

    Optional<String> budgetReached(CollectionSettings.Budget budget, String jobId) {
        if (budget == null || jobId == null) {
            return Optional.empty();
        }
        Optional<JobStatus.Usage> spent = jobs.spent(jobId);
        if (spent.isEmpty()) {
            return Optional.empty();
        }
        long tokens = spent.get().inputTokens() + spent.get().outputTokens();
        if (budget.maxTokens() != null && tokens >= budget.maxTokens()) {
            return Optional.of("job budget of " + budget.maxTokens() + " tokens reached (" + tokens + " spent)");
        }
        Double cost = spent.get().cost();
        if (budget.maxCost() != null && cost != null && cost >= budget.maxCost()) {
            return Optional.of("job budget of " + budget.maxCost() + " reached (" + String.format(Locale.ROOT, "%.4f", cost) + " spent)");
        }
        return Optional.empty();
    }

    /**
     * The collection's stored settings. Only a collection never read waits for Neo4j (and a stage
     * waits with it while Neo4j is down: better than guessing); after that the last read answers
     * at once and a read older than the refresh interval is renewed in the background, so an
     * unreachable Neo4j never slows a stage that does not otherwise need it.
     */
    private CollectionSettings stored(String collection) {
        Read read = reads.get(collection);
        if (read == null) {
            return load(collection);
        }
        if (System.nanoTime() - read.atNanos() >= refresh.toNanos() && refreshing.add(collection)) {
            refresher.execute(() -> {
                try {
                    load(collection);
                } catch (RuntimeException e) {
                    LOG.debugf("collection %s: settings not re-read (%s); the last ones stay in force", collection, e.getMessage());
                } finally {
                    refreshing.remove(collection);
                }
            });
        }
        return read.settings();
    }

    /** Reads the store; a read that began before a newer save or read does not replace it. */
    private CollectionSettings load(String collection) {
        long began = System.nanoTime();
        CollectionSettings settings = store.find(collection).orElse(CollectionSettings.DEFAULTS);
        return reads.merge(collection, new Read(settings, began), (kept, read) -> read.atNanos() >= kept.atNanos() ? read : kept)
                .settings();
    }

    /** A collection's own settings over {@code openrag.collections.<name>.contextualizer}, over the app's defaults. */
    private CollectionSettings withDefaults(String collection, CollectionSettings own) {
        String legacy = ConfigProvider.getConfig()
                .getOptionalValue("openrag.collections." + collection + ".contextualizer", String.class).map(Enrichments::modern)
                .orElse(null);
        return new CollectionSettings(
                first(own.contextualizer(), legacy, defaults.contextualizer()),
                first(own.graphExtractor(), defaults.graphExtractor()),
                first(own.summaries(), defaults.summaries()),
                own.models() == null ? Map.of() : own.models(), own.budget());
    }

    /**
     * Every role the settings send to an LLM must resolve (provider known, key present), and with
     * a cost budget, have a price: a cost nobody can compute would never stop a job.
     */
    private void requireUsable(CollectionSettings settings, boolean costBudget) {
        List<LlmRole> llmRoles = new ArrayList<>();
        if ("llm".equals(settings.contextualizer())) {
            llmRoles.add(LlmRole.CONTEXTUALIZER);
        }
        if ("llm".equals(settings.graphExtractor())) {
            llmRoles.add(LlmRole.GRAPH_EXTRACTOR);
        }
        if ("llm".equals(settings.summaries())) {
            llmRoles.add(LlmRole.SUMMARIZER);
        }
        for (LlmRole role : llmRoles) {
            String model = models.settings(role, settings.model(role)).name();
            if (costBudget && !prices.known(model)) {
                throw new IllegalArgumentException("field 'budget.maxCost' needs a price for " + model
                        + ": set openrag.llm.prices.\"" + model.substring(model.indexOf(':') + 1) + "\".input and .output");
            }
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
