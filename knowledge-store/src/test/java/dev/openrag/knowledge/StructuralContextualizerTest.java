package dev.openrag.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.contextual.StructuralContextualizer;
import dev.openrag.knowledge.text.SourceCode;
import dev.openrag.schemas.Chunk;

class StructuralContextualizerTest {

    private static final String RUST = """
            //! Executor for differential fuzzing.
            //! It wraps two executors.
            use core::fmt::Debug;

            /// Wraps a primary executor and a secondary one.
            pub struct DiffExecutor<A, B> {
                primary: A,
                secondary: B,
            }

            impl<A, B> DiffExecutor<A, B> {
                /// Create a new `DiffExecutor`.
                pub fn new(primary: A, secondary: B) -> Self {
                    Self { primary, secondary }
                }

                pub fn primary(&mut self) -> &mut A {
                    &mut self.primary
                }
            }
            """;

    @Test
    void codeChunksAreSituatedByFileSynopsisEnclosingDeclarationsAndDefinedNames() {
        int start = RUST.indexOf("        Self { primary");
        int secondStart = RUST.indexOf("    pub fn primary");
        List<Chunk> chunks = List.of(
                new Chunk("c/d#0", 0, RUST.substring(start, secondStart), List.of(), start, secondStart, null, null),
                new Chunk("c/d#1", 1, RUST.substring(secondStart), List.of(), secondStart, RUST.length(), null, null));

        List<String> contexts = new StructuralContextualizer().contexts(null, "src/executors/differential.rs", RUST, chunks);

        assertThat(contexts.get(0))
                .contains("Source file: src/executors/differential.rs (rust)")
                .contains("About: Executor for differential fuzzing. It wraps two executors.")
                .contains("Inside: impl DiffExecutor > fn new")
                .contains("Declares: struct DiffExecutor, impl DiffExecutor");
        assertThat(contexts.get(1)).contains("Inside: impl DiffExecutor").contains("Defines: fn primary").contains("Part 2 of 2.");
    }

    @Test
    void proseGetsTitleSectionAndFirstParagraph() {
        String text = "Kafka keeps order per key.\n\nMore text here.";
        List<String> contexts = new StructuralContextualizer().contexts("Kafka notes", "file:///notes.txt", text,
                List.of(new Chunk("c/d#0", 0, "More text here.", List.of("Ordering"), 28, 43, null, null)));

        assertThat(contexts.get(0)).startsWith("Document: Kafka notes").contains("About: Kafka keeps order per key.")
                .contains("Section: Ordering").doesNotContain("Inside:");
    }

    @Test
    void languageIsRecognisedFromExtensionOrContent() {
        assertThat(SourceCode.language("a/b/x.py", null, "")).isEqualTo("python");
        assertThat(SourceCode.language(null, "text/plain", RUST)).isEqualTo("rust");
        assertThat(SourceCode.language(null, "text/plain", "Just an ordinary sentence about the weather.")).isNull();
        assertThat(SourceCode.language("notes.md", "text/markdown", "# Title")).isNull();
    }
}
