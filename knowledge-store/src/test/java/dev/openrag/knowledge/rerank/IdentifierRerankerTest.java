package dev.openrag.knowledge.rerank;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.knowledge.text.QueryTerms;

class IdentifierRerankerTest {

    private static IndexedChunk chunk(String context, String text) {
        return new IndexedChunk("c", "d", "c/d#0", 0, "t", null, List.of(), text, context, null);
    }

    @Test
    void codeNamesAreQuotedNamesAndIdentifierShapedWords() {
        assertThat(QueryTerms.codeNames("What does the `removable()` method in the `MergeScheduler` do?"))
                .containsExactly("removable", "mergescheduler");
        assertThat(QueryTerms.codeNames("how is parse_http_header called from readFrame()?"))
                .containsExactly("parse_http_header", "readframe");
        assertThat(QueryTerms.codeNames("How do consumer groups share partitions?")).isEmpty();
        assertThat(QueryTerms.codeNames("what changed in 3.0, e.g. in self.parser and std::mem::swap?"))
                .containsExactly("parser", "swap");
    }

    @Test
    void aChunkThatDefinesTheNamedCodeScoresAboveOneThatOnlyMentionsIt() {
        IndexedChunk defines = chunk("File: sched.rs\nInside: impl MergeScheduler\nDefines: fn removable", "fn removable(&self) -> bool {}");
        IndexedChunk mentions = chunk("File: other.rs", "let r = scheduler.removable();");
        IndexedChunk unrelated = chunk("File: x.rs", "fn main() {}");

        List<Double> scores = new IdentifierReranker().score("What does `removable()` in `MergeScheduler` return?",
                List.of(unrelated, mentions, defines));

        assertThat(scores).containsExactly(0.0, 0.25, 1.0);
    }

    @Test
    void aNameCountsOnlyAsAWholeIdentifierOfTheText() {
        assertThat(IdentifierReranker.containsWord("let r = scheduler.removable();", "removable")).isTrue();
        assertThat(IdentifierReranker.containsWord("removable", "removable")).isTrue();
        assertThat(IdentifierReranker.containsWord("is_removable(x) or removables", "removable")).isFalse();
        assertThat(IdentifierReranker.containsWord("removable2 and removable_x, then (removable)", "removable")).isTrue();
        assertThat(IdentifierReranker.containsWord("", "removable")).isFalse();
    }

    @Test
    void declaredNamesAreTheWordsOfEveryDefinesAndInsideLine() {
        assertThat(IdentifierReranker.declaredNames("""
                Inside: impl MergeScheduler > fn run
                Summary: XDefines: not_a_label
                Defines: fn removable, struct Queue_2
                Defines: const LIMIT"""))
                .containsExactlyInAnyOrder("impl", "mergescheduler", "fn", "run", "removable", "struct", "queue_2", "const", "limit");
        assertThat(IdentifierReranker.declaredNames("Defines: last_line_without_newline")).containsExactly("last_line_without_newline");
        assertThat(IdentifierReranker.declaredNames("File: a.rs\nDefines:")).isEmpty();
        assertThat(IdentifierReranker.declaredNames(null)).isEmpty();
    }

    @Test
    void aQueryWithoutCodeNamesChangesNothing() {
        assertThat(new IdentifierReranker().score("how are offsets committed", List.of(chunk("Defines: commit", "commit offsets"))))
                .containsExactly(0.0);
    }
}
