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
import dev.openrag.knowledge.port.CollectionSettingsStore;
import dev.openrag.knowledge.runtime.LlmConfig;
import dev.openrag.knowledge.runtime.OllamaConfig;
import dev.openrag.knowledge.runtime.RoleModels;
import dev.openrag.knowledge.settings.CollectionSettings;
import dev.openrag.knowledge.summary.ChatSummarizer;
import dev.openrag.schemas.Chunk;
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

    private static RoleModels models() {
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(LlmConfig.class).withMapping(OllamaConfig.class).build();
        return new RoleModels(config.getConfigMapping(LlmConfig.class), config.getConfigMapping(OllamaConfig.class));
    }

    private Enrichments enrichments(String contextualizer, boolean summaries, Duration refresh) {
        return new Enrichments(store, models(), contextualizer, "rules", "extractive", summaries, refresh);
    }

    @Test
    void theAppsDefaultsApplyUntilACollectionHasItsOwnSettings() {
        Enrichments enrichments = enrichments("structural", true, Duration.ZERO);

        assertThat(enrichments.effective("notes")).isEqualTo(new CollectionSettings("structural", "rules", "extractive", Map.of()));
        assertThat(enrichments.contextualizer("notes")).isInstanceOf(StructuralContextualizer.class);
        assertThat(enrichments.graphExtractor("notes")).isEmpty();

        enrichments.save("notes", new CollectionSettings("llm", null, "llm", null));

        assertThat(enrichments.effective("notes")).isEqualTo(new CollectionSettings("llm", "rules", "llm", Map.of()));
        assertThat(enrichments.contextualizer("notes")).isInstanceOf(LlmContextualizer.class);
        assertThat(enrichments.contextualizer("notes").name()).isEqualTo("llm:ollama:llama3.2");
        assertThat(enrichments.summarizer("notes")).get().isInstanceOf(ChatSummarizer.class);
        assertThat(enrichments.contextualizer("other")).isInstanceOf(StructuralContextualizer.class);
    }

    @Test
    void eachModeAndModelIsMadeOnceAndSharedByCollections() {
        Enrichments enrichments = enrichments("structural", true, Duration.ZERO);
        enrichments.save("a", new CollectionSettings("llm", null, null, null));
        enrichments.save("b", new CollectionSettings("llm", null, null, null));
        enrichments.save("c", new CollectionSettings("llm", null, null,
                Map.of("contextualizer", new CollectionSettings.ModelChoice("ollama", "qwen2.5"))));

        assertThat(enrichments.contextualizer("a")).isSameAs(enrichments.contextualizer("b"));
        assertThat(enrichments.contextualizer("c")).isNotSameAs(enrichments.contextualizer("a"));
        assertThat(enrichments.contextualizer("c").name()).isEqualTo("llm:ollama:qwen2.5");
    }

    @Test
    void noneAndOffMeanNoContextAndNoSummaries() {
        Enrichments enrichments = enrichments("none", false, Duration.ZERO);
        List<Chunk> chunks = List.of(new Chunk("c/d#0", 0, "text", List.of(), 0, 4, null, null));

        assertThat(enrichments.contextualizer("x").contextualize("t", "u", "text", chunks).texts()).containsExactly("");
        assertThat(enrichments.summarizer("x")).isEmpty();
        assertThat(enrichments.effective("x").summaries()).isEqualTo("off");
    }

    @Test
    void whileTheStoreIsDownTheLastSettingsReadStayInForceAndNeverReadMeansWait() {
        Enrichments enrichments = enrichments("structural", true, Duration.ZERO);
        enrichments.save("notes", new CollectionSettings("llm", null, null, null));
        assertThat(enrichments.effective("notes").contextualizer()).isEqualTo("llm");

        store.down.set(true);

        assertThat(enrichments.effective("notes").contextualizer()).isEqualTo("llm");
        assertThatThrownBy(() -> enrichments.effective("never-read")).hasMessageContaining("neo4j unreachable");
    }

    @Test
    void anotherInstancesChangeIsSeenAfterTheRefreshInterval() throws InterruptedException {
        Enrichments enrichments = enrichments("structural", true, Duration.ofMillis(200));
        assertThat(enrichments.effective("notes").contextualizer()).isEqualTo("structural");

        store.save("notes", new CollectionSettings("none", null, null, Map.of())); // as another instance would

        assertThat(enrichments.effective("notes").contextualizer()).as("still the cached read").isEqualTo("structural");
        Thread.sleep(250);
        assertThat(enrichments.effective("notes").contextualizer()).isEqualTo("none");
    }

    @Test
    void unknownDefaultsAndBadSettingsAreRefusedNamingWhatToFix() {
        assertThatThrownBy(() -> enrichments("gpt", true, Duration.ZERO))
                .hasMessageContaining("field 'contextualizer' must be one of [structural, llm, none], not 'gpt'");
        Enrichments enrichments = enrichments("structural", true, Duration.ZERO);
        assertThatThrownBy(() -> enrichments.save("x", new CollectionSettings(null, "llm", null,
                Map.of("graph-extractor", new CollectionSettings.ModelChoice("openai", null)))))
                .hasMessageContaining("provider openai needs an API key");
        assertThat(store.saved).doesNotContainKey("x");
        assertThat(enrichments("ollama", true, Duration.ZERO).effective("y").contextualizer()).as("the older name").isEqualTo("llm");
    }
}
