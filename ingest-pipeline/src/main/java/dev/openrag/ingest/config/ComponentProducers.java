package dev.openrag.ingest.config;

import java.util.Map;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.ingest.stage.contextualize.Contextualizers;
import dev.openrag.ingest.stage.contextualize.NoContext;
import dev.openrag.knowledge.chat.OllamaChat;
import dev.openrag.knowledge.contextual.OllamaContextualizer;
import dev.openrag.knowledge.contextual.StructuralContextualizer;
import dev.openrag.knowledge.neo4j.Neo4jGraphStore;
import dev.openrag.knowledge.opensearch.OpenSearchLexicalIndex;
import dev.openrag.knowledge.port.GraphStore;
import dev.openrag.knowledge.port.LexicalIndex;
import dev.openrag.knowledge.port.SectionSummarizer;
import dev.openrag.knowledge.runtime.OllamaConfig;
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
     * {@code openrag.contextualizer}: structural (offline default), ollama (an LLM, with the
     * structural fallback) or none; {@code openrag.collections.<name>.contextualizer} overrides it per collection.
     */
    @Produces
    @Singleton
    Contextualizers contextualizers(@ConfigProperty(name = "openrag.contextualizer", defaultValue = "structural") String mode,
                                    OllamaConfig ollama) {
        Config config = ConfigProvider.getConfig();
        return new Contextualizers(mode,
                collection -> config.getOptionalValue("openrag.collections." + collection + ".contextualizer", String.class),
                Map.of(Contextualizers.STRUCTURAL, StructuralContextualizer::new,
                        Contextualizers.NONE, NoContext::new,
                        Contextualizers.OLLAMA, () -> new OllamaContextualizer(ollama.url(), ollama.model(), ollama.maxInFlight(),
                                ollama.timeout(), ollama.maxRetries(), 24_000)));
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
     * terms) or ollama (the LLM writes them, extractive on failure); the embed stage adds them.
     */
    @Produces
    @Singleton
    SectionSummarizer sectionSummarizer(@ConfigProperty(name = "openrag.sections.summarizer", defaultValue = "extractive") String mode,
                                        OllamaConfig ollama) {
        return switch (mode) {
            case ExtractiveSummarizer.NAME -> new ExtractiveSummarizer();
            case "ollama" -> new ChatSummarizer(new OllamaChat(ollama.url(), ollama.model(), ollama.timeout()));
            default -> throw new IllegalArgumentException("openrag.sections.summarizer must be extractive or ollama, not '" + mode + "'");
        };
    }

    @Produces
    @Singleton
    GraphStore graphStore(Driver driver) {
        return new Neo4jGraphStore(driver);
    }
}
