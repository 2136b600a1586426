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
        assertThat(MemoryText.nameCandidates("Jon和Gina都喜欢什么？")).as("a Latin name inside characters").contains("jon", "gina");
        assertThat(MemoryText.nameCandidates("Jonas和Gina都喜欢什么？")).doesNotContain("jon");
    }

    @Test
    void theKnownNamesATextNamesComeInTheOrderItNamesThemInAnyScript() {
        java.util.Map<String, String> speakers = java.util.Map.of("jon", "Jon", "gina", "Gina", "jolene smith", "Jolene Smith",
                "小明", "小明", "小红", "小红");
        assertThat(MemoryText.named("What did Gina tell Jon?", speakers)).containsExactly("Gina", "Jon");
        assertThat(MemoryText.named("Hat Jolene  Smith mit Jon gesprochen?", speakers)).containsExactly("Jolene Smith", "Jon");
        assertThat(MemoryText.named("小红告诉小明什么了？", speakers)).as("CJK names inside a sentence of characters")
                .containsExactly("小红", "小明");
        assertThat(MemoryText.named("Gina和小明去了哪里？", speakers)).containsExactly("Gina", "小明");
        // controls: a longer name holding a known one, and no known name
        assertThat(MemoryText.named("What did Jonathan and Ginatra do?", speakers)).isEmpty();
        assertThat(MemoryText.named("小刚去了哪里？", speakers)).isEmpty();
    }

    @Test
    void aCjkNameIsFoundByTheBigramsSearchReadsNotInsideAnotherWordsCharacters() {
        java.util.Map<String, String> people = java.util.Map.of("明", "明", "小明", "小明", "민수", "민수", "수", "수", "王小明", "王小明");
        // hostile: a one-character name inside another word ("明" of 明天, tomorrow; "수" of 민수)
        assertThat(MemoryText.named("明天我们去哪里？", people)).isEmpty();
        assertThat(MemoryText.named("민수는 어디에 갔어요?", people)).containsExactly("민수");
        assertThat(MemoryText.namedTogether("明天和后天都下雨。", "明", "小明")).isFalse();
        // controls: the same names where they stand
        assertThat(MemoryText.named("明, 你去哪里？", people)).containsExactly("明");
        assertThat(MemoryText.named("수 씨는 어디에 있어요?", people)).containsExactly("수");
        assertThat(MemoryText.named("我和王小明明天去公园。", people)).as("a three-character name and the two it holds")
                .contains("王小明", "小明").doesNotContain("明");
        assertThat(MemoryText.namedTogether("明和Gina去了哪里？", "明", "Gina")).isFalse(); // 明和 is one run: no lone 明
        assertThat(MemoryText.namedTogether("明 和 Gina 去了哪里？", "明", "Gina")).isTrue();
    }

    @Test
    void aChineseOrJapaneseNameInsideALongerWordIsNoMention() {
        java.util.Map<String, String> people = java.util.Map.of("小明", "小明", "山田", "山田", "李明", "李明");
        // hostile: the name's characters inside a longer word (小明星, a starlet; 小山田, another family name)
        assertThat(MemoryText.named("她是一个小明星。", people)).isEmpty();
        assertThat(MemoryText.named("小山田さんは大阪に住んでいます。", people)).isEmpty();
        // controls: the same names as words, also before a word that begins with their last character (星期天, 明星)
        assertThat(MemoryText.named("小明星期天去北京。", people)).containsExactly("小明");
        assertThat(MemoryText.named("山田さんは大阪に住んでいます。", people)).containsExactly("山田");
        assertThat(MemoryText.named("明星李明来了。", people)).containsExactly("李明");
        assertThat(MemoryText.named("小明和山田去了哪里？", people)).containsExactly("小明", "山田");
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

    @Test
    void twoPeopleAreNamedTogetherByTheirOwnLanguagesJoiningWordsOrSigns() {
        // together: each language's own conjunction (a function word of that language), signs, a one-character CJK joint
        assertThat(MemoryText.namedTogether("Was mögen Jon und Gina beide?", "Jon", "Gina")).isTrue();
        assertThat(MemoryText.namedTogether("¿Qué les gusta a Jon y a Gina?", "Gina", "Jon")).isTrue();
        assertThat(MemoryText.namedTogether("Qu'est-ce que Jon et Gina aiment tous les deux ?", "Jon", "Gina")).isTrue();
        assertThat(MemoryText.namedTogether("Jon和Gina都喜欢什么？", "Jon", "Gina")).isTrue();
        assertThat(MemoryText.namedTogether("小明和小红都喜欢什么？", "小明", "小红")).isTrue();
        assertThat(MemoryText.namedTogether("JonとGinaは何が好きですか？", "Jon", "Gina")).isTrue();
        assertThat(MemoryText.namedTogether("Jon/Gina: wer hat gewonnen?", "Jon", "Gina")).isTrue();
        // controls, apart: a content word or more between them, in the same languages
        assertThat(MemoryText.namedTogether("Was hat Jon Gina erzählt?", "Jon", "Gina")).as("a space alone").isFalse();
        assertThat(MemoryText.namedTogether("Was hat Jon seinem Freund über Gina erzählt?", "Jon", "Gina")).isFalse();
        assertThat(MemoryText.namedTogether("¿Qué le regaló Jon a Gina?", "Jon", "Gina")).as("'a' joins only where nothing else stands")
                .isTrue();
        assertThat(MemoryText.namedTogether("¿Qué le dijo Jon al hermano de Gina?", "Jon", "Gina")).isFalse();
        assertThat(MemoryText.namedTogether("Qu'est-ce que Jon a raconté à Gina ?", "Jon", "Gina")).isFalse();
        assertThat(MemoryText.namedTogether("Jon告诉Gina什么了？", "Jon", "Gina")).as("two characters: a verb").isFalse();
        assertThat(MemoryText.namedTogether("小明告诉小红什么了？", "小明", "小红")).isFalse();
        assertThat(MemoryText.namedTogether("Was mögen Jonas und Gina?", "Jon", "Gina")).as("whole names only").isFalse();
    }
}
