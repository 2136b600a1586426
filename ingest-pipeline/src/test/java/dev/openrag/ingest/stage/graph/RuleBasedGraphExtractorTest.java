package dev.openrag.ingest.stage.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.contextual.LlmGraphExtractor;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.GraphExtracted.Mention;
import dev.openrag.schemas.GraphExtracted.Relation;

class RuleBasedGraphExtractorTest {

    private static final String CODE = """
            pub struct Executor {}

            impl Executor {
                pub fn run_target(&self) -> Observer { Observer::new() }
            }

            pub struct Observer {}
            """;

    private static List<Chunk> chunks() {
        int split = CODE.indexOf("pub struct Observer");
        return List.of(new Chunk("c/d#0", 0, CODE.substring(0, split), List.of(), 0, split, null, null),
                new Chunk("c/d#1", 1, CODE.substring(split), List.of(), split, CODE.length(), null, null));
    }

    @Test
    void codeSymbolsBecomeEntitiesMentionedByChunksAndReferencesBecomeRelations() {
        RuleBasedGraphExtractor.Extraction extraction = new RuleBasedGraphExtractor().extract(CODE, "src/exec.rs", chunks());

        assertThat(extraction.entities()).extracting(e -> e.id())
                .contains("symbol:executor", "symbol:observer", "symbol:run_target");
        assertThat(extraction.mentions()).contains(new Mention("c/d#0", "symbol:observer"), new Mention("c/d#1", "symbol:observer"));
        assertThat(extraction.relations()).contains(new Relation("symbol:executor", "symbol:observer", "references"));
    }

    @Test
    void anLlmAddsItsEntitiesAndRelationsAndAFailedChunkKeepsTheRules() {
        RuleBasedGraphExtractor.Extraction rules = new RuleBasedGraphExtractor().extract(CODE, "src/exec.rs", chunks());

        RuleBasedGraphExtractor.Extraction merged = RuleBasedGraphExtractor.withLlm(rules, chunks(), chunks().stream()
                .map(chunk -> chunk.text().contains("impl") ? new LlmGraphExtractor.Found(List.<String[]>of(new String[] {"Fuzzing Campaign", "concept"}, new String[] {"Executor", "symbol"}),
                        List.<String[]>of(new String[] {"Executor", "Fuzzing Campaign", "drives"}))
                        : null).toList());

        assertThat(merged.entities()).extracting(e -> e.id()).contains("concept:fuzzing campaign", "symbol:executor");
        assertThat(merged.entities()).filteredOn(e -> e.id().equals("symbol:executor")).hasSize(1);
        assertThat(merged.mentions()).contains(new Mention("c/d#0", "concept:fuzzing campaign"));
        assertThat(merged.relations()).contains(new Relation("symbol:executor", "concept:fuzzing campaign", "drives"))
                .containsAll(rules.relations());
        assertThat(merged.mentions()).containsAll(rules.mentions());
    }
}
