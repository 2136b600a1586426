package dev.openrag.knowledge.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Query words for BM25 never carry Lucene syntax; names are matched as whole words. */
class MemoryTextTest {

    @Test
    void onlyLowerCasedWordsWithoutFunctionWordsOrSyntax() {
        assertThat(MemoryText.luceneQuery("What did Caroline say about the LGBTQ+ support group?"))
                .isEqualTo("caroline OR say OR lgbtq OR support OR group");
        assertThat(MemoryText.luceneQuery("title:x AND (y OR z*) ~2 \"quoted\" NOT w")).isEqualTo("title OR x OR y OR z OR 2 OR quoted OR not OR w"); // lower case: never an operator
        assertThat(MemoryText.luceneQuery("what was it about?")).isEmpty();
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
}
