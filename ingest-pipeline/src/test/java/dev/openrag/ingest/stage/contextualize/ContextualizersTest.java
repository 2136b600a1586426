package dev.openrag.ingest.stage.contextualize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.port.Contextualizer;
import dev.openrag.schemas.Chunk;

/** The contextualizer mode per collection, its default, and clear errors for unknown modes. */
class ContextualizersTest {

    private static Contextualizer named(String name) {
        return new Contextualizer() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Contexts contextualize(String title, String uri, String text, List<Chunk> chunks) {
                return Contexts.offline(chunks.stream().map(c -> name).toList());
            }
        };
    }

    @Test
    void aCollectionCanUseItsOwnModeAndEachModeIsMadeOnce() {
        AtomicInteger ollamaMade = new AtomicInteger();
        Contextualizers contextualizers = new Contextualizers("structural",
                collection -> collection.equals("llm-notes") ? Optional.of("ollama") : Optional.empty(),
                Map.of("structural", () -> named("structural"), "ollama", () -> {
                    ollamaMade.incrementAndGet();
                    return named("ollama");
                }));

        assertThat(contextualizers.forCollection("code").name()).isEqualTo("structural");
        assertThat(ollamaMade).hasValue(0);
        assertThat(contextualizers.forCollection("llm-notes").name()).isEqualTo("ollama");
        assertThat(contextualizers.forCollection("llm-notes")).isSameAs(contextualizers.forCollection("llm-notes"));
        assertThat(ollamaMade).hasValue(1);
    }

    @Test
    void noneGivesEmptyContexts() {
        List<Chunk> chunks = List.of(new Chunk("c/d#0", 0, "text", List.of(), 0, 4, null, null));
        assertThat(new NoContext().contextualize("t", "u", "text", chunks).texts()).containsExactly("");
    }

    @Test
    void unknownModesAreConfigurationErrorsNamingTheKey() {
        Map<String, java.util.function.Supplier<Contextualizer>> factories = Map.of("structural", () -> named("structural"));
        assertThatThrownBy(() -> new Contextualizers("gpt", c -> Optional.empty(), factories))
                .hasMessageContaining("openrag.contextualizer must be one of [structural], not 'gpt'");
        Contextualizers contextualizers = new Contextualizers("structural", c -> Optional.of("magic"), factories);
        assertThatThrownBy(() -> contextualizers.forCollection("notes"))
                .hasMessageContaining("openrag.collections.notes.contextualizer must be one of [structural], not 'magic'");
    }
}
