package dev.openrag.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.text.FulltextQuery;

/** Query words for BM25 never carry Lucene syntax; names are matched as whole words. */
class MemoryTextTest {

    @Test
    void onlyLowerCasedWordsWithoutFunctionWordsOrSyntax() {
        assertThat(FulltextQuery.luceneQuery("What did Caroline say about the LGBTQ+ support group?"))
                .isEqualTo("caroline OR say OR lgbtq OR support OR group");
        assertThat(FulltextQuery.luceneQuery("title:x AND (y OR z*) ~2 \"quoted\" NOT w")).isEqualTo("title OR x OR y OR z OR 2 OR quoted OR not OR w"); // lower case: never an operator
        assertThat(FulltextQuery.luceneQuery("what was it about?")).isEmpty();
    }

    @Test
    void aScopeLimitsTheQuery() {
        assertThat(MemoryText.inScope("user:alice", "caroline OR group")).isEqualTo("+scope:\"user:alice\" +(caroline group)");
    }

    @Test
    void namesAreMatchedAsWholeWordsOrPairs() {
        assertThat(MemoryText.nameCandidates("What did Caroline's friend do?")).contains("caroline").doesNotContain("carolines");
        assertThat(MemoryText.nameCandidates("When did Jolene Smith travel?")).contains(MemoryText.key("Jolene  Smith"));
        assertThat(MemoryText.key("Jolene  Smith")).isEqualTo("jolene smith");
        assertThat(MemoryText.nameCandidates("?!")).isEmpty();
    }

    @Test
    void twoPeopleAreNamedTogetherOnlyWhenJoined() {
        assertThat(MemoryText.namedTogether("What do Jon and Gina both like?", "Gina", "Jon")).isTrue();
        assertThat(MemoryText.namedTogether("Did Gina or Jon win?", "Jon", "Gina")).isTrue();
        assertThat(MemoryText.namedTogether("What did Jon & Gina's studio sell?", "Jon", "Gina")).isTrue();
        assertThat(MemoryText.namedTogether("Is Jolene Smith and Jon's trip over?", "Jolene  Smith", "Jon")).isTrue();
        assertThat(MemoryText.namedTogether("What did Jon tell Gina?", "Jon", "Gina")).as("apart").isFalse();
        assertThat(MemoryText.namedTogether("What did Jon and his friend give Gina?", "Jon", "Gina")).isFalse();
        assertThat(MemoryText.namedTogether("What did Jonathan and Gina do?", "Jon", "Gina")).as("whole names only").isFalse();
    }
}
