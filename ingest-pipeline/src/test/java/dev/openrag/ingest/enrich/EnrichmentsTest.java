package dev.openrag.ingest.enrich;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.contextual.LlmContextualizer;
import dev.openrag.knowledge.contextual.StructuralContextualizer;
import dev.openrag.ingest.job.JobStatus;
import dev.openrag.knowledge.port.CollectionSettingsStore;
import dev.openrag.knowledge.runtime.LlmConfig;
import dev.openrag.knowledge.runtime.OllamaConfig;
import dev.openrag.knowledge.runtime.Prices;
import dev.openrag.knowledge.runtime.RoleModels;
import dev.openrag.knowledge.settings.CollectionSettings;
import dev.openrag.knowledge.summary.ChatSummarizer;
import dev.openrag.schemas.Chunk;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/** Which enrichments a collection gets: its stored settings over the app's defaults, made once, kept while Neo4j is down. */
class EnrichmentsTest {

    /** An in-memory store that can be made to fail like an unreachable Neo4j. */
    static final class MemoryStore implements CollectionSettingsStore {
        final Map<String, CollectionSettings> saved = new ConcurrentHashMap<>();
        final AtomicBoolean down = new AtomicBoolean();

        @Override
        public Optional<CollectionSettings> find(String collection) {
            if (down.get()) {
                throw new IllegalStateException("neo4j unreachable");
            }
            return Optional.ofNullable(saved.get(collection));
        }

        @Override
        public void save(String collection, CollectionSettings settings) {
            saved.put(collection, settings);
        }
    }

    private final MemoryStore store = new MemoryStore();
    private final Map<String, JobStatus.Usage> spent = new ConcurrentHashMap<>();
    private final SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(LlmConfig.class).withMapping(OllamaConfig.class)
            .withSources(new PropertiesConfigSource(Map.of("openrag.llm.prices.\"gpt-4o-mini\".input", "0.15",
                    "openrag.llm.prices.\"gpt-4o-mini\".output", "0.6",
                    "openrag.llm.graph-extractor.provider", "openai", "openrag.llm.graph-extractor.api-key", "sk-test"), "test", 100))
            .build();

    private Enrichments enrichments(String contextualizer, boolean summaries, Duration refresh) {
        LlmConfig llm = config.getConfigMapping(LlmConfig.class);
        return new Enrichments(store, new RoleModels(llm, config.getConfigMapping(OllamaConfig.class)),
                jobId -> Optional.ofNullable(spent.get(jobId)), new Prices(llm), contextualizer, "rules", "extractive", summaries, refresh);
    }

    private static JobStatus.Usage usage(long input, long output, Double cost) {
        return new JobStatus.Usage(1, input, output, 0, cost, Map.of(), Map.of());
    }

    @Test
    void theAppsDefaultsApplyUntilACollectionHasItsOwnSettings() {
        Enrichments enrichments = enrichments("structural", true, Duration.ZERO);

        assertThat(enrichments.effective("notes")).isEqualTo(new CollectionSettings("structural", "rules", "extractive", Map.of()));
        assertThat(enrichments.contextualizer("notes", "job").enricher()).isInstanceOf(StructuralContextualizer.class);
        assertThat(enrichments.graphExtractor("notes", "job").enricher()).isNull();

        enrichments.save("notes", new CollectionSettings("llm", null, "llm", null));

        assertThat(enrichments.effective("notes")).isEqualTo(new CollectionSettings("llm", "rules", "llm", Map.of()));
        assertThat(enrichments.contextualizer("notes", "job").enricher()).isInstanceOf(LlmContextualizer.class);
        assertThat(enrichments.contextualizer("notes", "job").enricher().name()).isEqualTo("llm:ollama:llama3.2");
        assertThat(enrichments.summarizer("notes", "job").enricher()).isInstanceOf(ChatSummarizer.class);
        assertThat(enrichments.contextualizer("other", "job").enricher()).isInstanceOf(StructuralContextualizer.class);
    }

    @Test
    void eachModeAndModelIsMadeOnceAndSharedByCollections() {
        Enrichments enrichments = enrichments("structural", true, Duration.ZERO);
        enrichments.save("a", new CollectionSettings("llm", null, null, null));
        enrichments.save("b", new CollectionSettings("llm", null, null, null));
        enrichments.save("c", new CollectionSettings("llm", null, null,
                Map.of("contextualizer", new CollectionSettings.ModelChoice("ollama", "qwen2.5"))));

        assertThat(enrichments.contextualizer("a", "job").enricher()).isSameAs(enrichments.contextualizer("b", "job").enricher());
        assertThat(enrichments.contextualizer("c", "job").enricher()).isNotSameAs(enrichments.contextualizer("a", "job").enricher());
        assertThat(enrichments.contextualizer("c", "job").enricher().name()).isEqualTo("llm:ollama:qwen2.5");
    }

    @Test
    void noneAndOffMeanNoContextAndNoSummaries() {
        Enrichments enrichments = enrichments("none", false, Duration.ZERO);
        List<Chunk> chunks = List.of(new Chunk("c/d#0", 0, "text", List.of(), 0, 4, null, null));

        assertThat(enrichments.contextualizer("x", "job").enricher().contextualize("t", "u", "text", chunks).texts()).containsExactly("");
        assertThat(enrichments.summarizer("x", "job").enricher()).isNull();
        assertThat(enrichments.effective("x").summaries()).isEqualTo("off");
    }

    @Test
    void whileTheStoreIsDownTheLastSettingsReadStayInForceAndNeverReadMeansWait() {
        Enrichments enrichments = enrichments("structural", true, Duration.ZERO);
        enrichments.save("notes", new CollectionSettings("llm", null, null, null));
        assertThat(enrichments.effective("notes").contextualizer()).isEqualTo("llm");

        store.down.set(true);

        long started = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            assertThat(enrichments.effective("notes").contextualizer()).isEqualTo("llm");
        }
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("never waits on the store once read").isLessThan(Duration.ofSeconds(1));
        assertThatThrownBy(() -> enrichments.effective("never-read")).hasMessageContaining("neo4j unreachable");
    }

    @Test
    void anotherInstancesChangeIsSeenSoonAfterTheRefreshInterval() throws InterruptedException {
        Enrichments enrichments = enrichments("structural", true, Duration.ofMillis(200));
        assertThat(enrichments.effective("notes").contextualizer()).isEqualTo("structural");

        store.save("notes", new CollectionSettings("none", null, null, Map.of())); // as another instance would

        assertThat(enrichments.effective("notes").contextualizer()).as("still the cached read").isEqualTo("structural");
        Thread.sleep(250);
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        String seen = enrichments.effective("notes").contextualizer(); // answers at once, re-reads in the background
        while (!seen.equals("none") && System.nanoTime() < deadline) {
            Thread.sleep(20);
            seen = enrichments.effective("notes").contextualizer();
        }
        assertThat(seen).isEqualTo("none");
    }

    @Test
    void unknownDefaultsAndBadSettingsAreRefusedNamingWhatToFix() {
        assertThatThrownBy(() -> enrichments("gpt", true, Duration.ZERO))
                .hasMessageContaining("field 'contextualizer' must be one of [structural, llm, none], not 'gpt'");
        Enrichments enrichments = enrichments("structural", true, Duration.ZERO);
        assertThatThrownBy(() -> enrichments.save("x", new CollectionSettings(null, null, "llm",
                Map.of("summarizer", new CollectionSettings.ModelChoice("anthropic", null)))))
                .hasMessageContaining("provider anthropic needs an API key");
        assertThat(store.saved).doesNotContainKey("x");
        assertThat(enrichments("ollama", true, Duration.ZERO).effective("y").contextualizer()).as("the older name").isEqualTo("llm");
    }

    @Test
    void aJobThatReachedItsTokenBudgetGetsTheOfflineEnrichmentsWithAWarning() {
        Enrichments enrichments = enrichments("structural", true, Duration.ZERO);
        enrichments.save("paid", new CollectionSettings("llm", "llm", "llm", null, new CollectionSettings.Budget(1000L, null)));
        spent.put("under", usage(600, 300, null));
        spent.put("over", usage(700, 300, null));

        assertThat(enrichments.contextualizer("paid", "fresh").enricher()).isInstanceOf(LlmContextualizer.class);
        assertThat(enrichments.contextualizer("paid", "under").warnings()).isEmpty();
        Enrichments.Pick<dev.openrag.knowledge.port.Contextualizer> over = enrichments.contextualizer("paid", "over");
        assertThat(over.enricher()).isInstanceOf(StructuralContextualizer.class);
        assertThat(over.warnings()).containsExactly(
                "job budget of 1000 tokens reached (1000 spent): structural contexts instead of the LLM's");
        assertThat(enrichments.graphExtractor("paid", "over").enricher()).isNull();
        assertThat(enrichments.graphExtractor("paid", "over").warnings().get(0)).endsWith("the rule-based graph instead of the LLM's");
        assertThat(enrichments.summarizer("paid", "over").enricher()).isInstanceOf(dev.openrag.knowledge.summary.ExtractiveSummarizer.class);
    }

    @Test
    void aCostBudgetStopsAtItsCostAndNeedsAPriceForEveryModelItCounts() {
        Enrichments enrichments = enrichments("structural", true, Duration.ZERO);
        enrichments.save("local", new CollectionSettings("llm", null, null, null, new CollectionSettings.Budget(null, 0.50)));
        spent.put("cheap", usage(1000, 1000, 0.10));
        spent.put("dear", usage(1000, 1000, 0.50));

        assertThat(enrichments.contextualizer("local", "cheap").warnings()).isEmpty();
        assertThat(enrichments.contextualizer("local", "dear").warnings().get(0)).startsWith("job budget of 0.5 reached (0.5000 spent)");
        assertThatThrownBy(() -> enrichments.save("hosted", new CollectionSettings(null, "llm", null,
                Map.of("graph-extractor", new CollectionSettings.ModelChoice("openai", "gpt-4.1")),
                new CollectionSettings.Budget(null, 1.0))))
                .hasMessageContaining("field 'budget.maxCost' needs a price for openai:gpt-4.1");
        enrichments.save("priced", new CollectionSettings(null, "llm", null, null, new CollectionSettings.Budget(null, 1.0)));
        assertThat(enrichments.effective("priced").budget().maxCost()).isEqualTo(1.0);
        assertThatThrownBy(() -> enrichments.save("bad", new CollectionSettings(null, null, null, null,
                new CollectionSettings.Budget(0L, null)))).hasMessageContaining("'budget.maxTokens' must be at least 1");
    }
}
