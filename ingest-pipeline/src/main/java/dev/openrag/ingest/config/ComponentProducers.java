package dev.openrag.ingest.config;

import java.util.Map;
import java.util.function.Supplier;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.ingest.stage.contextualize.Contextualizers;
import dev.openrag.ingest.stage.contextualize.NoContext;
import dev.openrag.knowledge.contextual.LlmContextualizer;
import dev.openrag.knowledge.contextual.StructuralContextualizer;
import dev.openrag.knowledge.llm.LlmRole;
import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.Contextualizer;
import dev.openrag.knowledge.port.GraphStore;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.knowledge.port.SectionSummarizer;
import dev.openrag.knowledge.runtime.RoleModels;
import dev.openrag.knowledge.summary.ChatSummarizer;
import dev.openrag.knowledge.summary.ExtractiveSummarizer;
import dev.openrag.schemas.EventCodec;

/** The adapters this app uses (embedder and vector backend: knowledge-store's shared producers). */
public class ComponentProducers {

    @Produces
    @Singleton
    EventCodec eventCodec() {
        return new EventCodec();
    }

    /**
     * {@code openrag.contextualizer}: structural (offline default), llm (the model of
     * {@code openrag.llm.contextualizer.*}, with the structural fallback; ollama is its older name)
     * or none; {@code openrag.collections.<name>.contextualizer} overrides it per collection.
     */
    @Produces
    @Singleton
    Contextualizers contextualizers(@ConfigProperty(name = "openrag.contextualizer", defaultValue = "structural") String mode,
                                    RoleModels models) {
        Config config = ConfigProvider.getConfig();
        Supplier<Contextualizer> llm = () -> new LlmContextualizer(models.forRole(LlmRole.CONTEXTUALIZER), 24_000);
        return new Contextualizers(mode,
                collection -> config.getOptionalValue("openrag.collections." + collection + ".contextualizer", String.class),
                Map.of(Contextualizers.STRUCTURAL, StructuralContextualizer::new,
                        Contextualizers.NONE, NoContext::new,
                        Contextualizers.LLM, llm,
                        Contextualizers.OLLAMA, llm));
    }

    /**
     * By default OpenSearch makes writes searchable within its 1 s refresh interval, which keeps
     * indexing cheap; {@code openrag.opensearch.refresh-on-write=true} (tests) makes a document
     * searchable the moment its job shows it done.
     */
    @Produces
    @Singleton
    LexicalIndex lexicalIndex(OpenSearchClient client,
                              @ConfigProperty(name = "openrag.opensearch.refresh-on-write", defaultValue = "false") boolean refresh) {
        return new OpenSearchLexicalIndex(client, refresh);
    }

    /**
     * {@code openrag.sections.summarizer}: extractive (offline default: leading sentences and key
     * terms) or llm (the model of {@code openrag.llm.summarizer.*} writes them, extractive on
     * failure; ollama is its older name); the embed stage adds them.
     */
    @Produces
    @Singleton
    SectionSummarizer sectionSummarizer(@ConfigProperty(name = "openrag.sections.summarizer", defaultValue = "extractive") String mode,
                                        RoleModels models) {
        return switch (mode) {
            case ExtractiveSummarizer.NAME -> new ExtractiveSummarizer();
            case "llm", "ollama" -> new ChatSummarizer(models.forRole(LlmRole.SUMMARIZER));
            default -> throw new IllegalArgumentException("openrag.sections.summarizer must be extractive or llm, not '" + mode + "'");
        };
    }

    @Produces
    @Singleton
    GraphStore graphStore(Driver driver) {
        return new Neo4jGraphStore(driver);
    }
}
