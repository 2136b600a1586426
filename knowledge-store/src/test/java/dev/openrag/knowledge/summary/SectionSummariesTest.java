package dev.openrag.knowledge.summary;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.port.ChatModel;
import dev.openrag.knowledge.port.SectionSummarizer;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.SectionSummary;
import dev.openrag.schemas.TokenUsage;

class SectionSummariesTest {

    private static Chunk chunk(int index, String text, String... path) {
        return new Chunk("c/d#" + index, index, text, List.of(path), 0, text.length(), null, null);
    }

    @Test
    void everyHeadingPrefixAndTheDocumentGetASummaryOverTheChunksTheyContain() {
        List<Chunk> chunks = List.of(
                chunk(0, "Kafka keeps order per partition. Consumers commit offsets.", "Guide"),
                chunk(1, "A consumer group shares partitions. Rebalancing moves them.", "Guide", "Groups"),
                chunk(2, "Retention deletes old segments after seven days.", "Storage"));

        List<SectionSummary> summaries = SectionSummaries.of("Kafka notes", chunks, new ExtractiveSummarizer());

        assertThat(summaries).extracting(SectionSummary::headingPath).containsExactly(
                List.of(), List.of("Guide"), List.of("Guide", "Groups"), List.of("Storage"));
        assertThat(summaries.get(0).summary()).startsWith("Kafka notes: Kafka keeps order per partition. Consumers commit offsets.");
        assertThat(summaries.get(1).summary()).startsWith("Guide: Kafka keeps order").contains("partition");
        assertThat(summaries.get(2).summary()).startsWith("Guide > Groups: A consumer group shares partitions.");
        assertThat(summaries.get(3).title()).isEqualTo("Storage");
        assertThat(summaries).allSatisfy(summary -> assertThat(summary.vector()).isNull());
    }

    @Test
    void leadingSentencesStopAtAboutThreeHundredCharactersAndSkipHeadingsAndFences() {
        String text = "## Setup\n```bash\nmake\n```\nFirst sentence here. " + "Second sentence is long. ".repeat(30);
        String lead = ExtractiveSummarizer.lead(List.of(text));
        assertThat(lead).startsWith("make First sentence here. Second sentence is long.").doesNotContain("Setup").doesNotContain("```");
        assertThat(lead.length()).isLessThanOrEqualTo(340);
    }

    @Test
    void aSourceFilesLicenceHeaderDoesNotLeadItsSummary() {
        String file = "/*\n * Copyright 2017 Google LLC.\n * Licensed under the Apache License, Version 2.0.\n */\n"
                + "/** Thrown because registry authentication failed. */\nclass RegistryAuthenticationFailedException {}\n";
        assertThat(ExtractiveSummarizer.lead(List.of(file))).startsWith("/** Thrown because registry authentication failed.")
                .doesNotContain("Copyright").doesNotContain("Licensed");
    }

    @Test
    void theChatSummarizerUsesTheModelAndFallsBackToExtractiveWhenItFails() {
        List<String> prompts = new ArrayList<>();
        ChatModel answering = new ChatModel() {
            public String name() { return "stand-in"; }
            public Reply chat(Prompt prompt) { prompts.add(prompt.user()); return new Reply(" Covers pruning tools. ", TokenUsage.NONE); }
            public Reply stream(Prompt prompt, java.util.function.Consumer<String> onToken) { throw new UnsupportedOperationException(); }
        };
        ChatModel failing = new ChatModel() {
            public String name() { return "down"; }
            public Reply chat(Prompt prompt) { throw new IllegalStateException("connection refused"); }
            public Reply stream(Prompt prompt, java.util.function.Consumer<String> onToken) { throw new UnsupportedOperationException(); }
        };

        assertThat(new ChatSummarizer(answering).summarize("Orchard", List.of("Pruning"), List.of("Use sharp secateurs.")))
                .isEqualTo(new SectionSummarizer.Summary("Covers pruning tools.", TokenUsage.NONE, "stand-in"));
        assertThat(prompts.get(0)).contains("Use sharp secateurs.").contains("the section \"Pruning\"");
        assertThat(new ChatSummarizer(failing).summarize("Orchard", List.of("Pruning"), List.of("Use sharp secateurs.")).text())
                .isEqualTo(new ExtractiveSummarizer().summarize("Orchard", List.of("Pruning"), List.of("Use sharp secateurs.")).text());
    }
}
