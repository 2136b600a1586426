package dev.openrag.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** How texts are read: by their script, else by the language whose stop words they use; ties read in each. */
class MemoryWordsTest {

    private final MemoryWords words = MemoryWords.of(true);

    @Test
    void eachTextIsReadInTheLanguageItsScriptOrStopWordsName() {
        assertThat(words.languagesOf("Wir haben gestern im Garten gearbeitet.")).containsExactly(MemoryWords.Language.GERMAN);
        assertThat(words.languagesOf("Mi dentista es la doctora Ruiz, en la calle Mayor.")).containsExactly(MemoryWords.Language.SPANISH);
        assertThat(words.languagesOf("Nous avons visité le musée avec les enfants.")).containsExactly(MemoryWords.Language.FRENCH);
        assertThat(words.languagesOf("We were at the museum with the children.")).containsExactly(MemoryWords.Language.ENGLISH);
        assertThat(words.languagesOf("我们的办公室在上海。")).containsExactly(MemoryWords.Language.CJK);
        assertThat(words.languagesOf("東京で働いています")).containsExactly(MemoryWords.Language.CJK);
        assertThat(words.languagesOf("Мы живём в Москве.")).containsExactly(MemoryWords.Language.RUSSIAN);
        assertThat(words.languagesOf("Bosch Siemens")).as("no stop word: every language").hasSize(MemoryWords.Language.LATIN.size());
    }

    @Test
    void oneCharacterOfAnotherScriptDoesNotDecideALongTextsLanguage() {
        // one CJK or Cyrillic character, or one name, inside a text of another script
        assertThat(words.languagesOf("We had lunch at the 寿 counter with the whole team after the review.")).as("one Han character")
                .containsExactly(MemoryWords.Language.ENGLISH);
        assertThat(words.languagesOf("Wir haben mit dem Team über Жуков und die Planung gesprochen.")).as("one Cyrillic word")
                .containsExactly(MemoryWords.Language.GERMAN);
        assertThat(words.languagesOf("Nous avons mangé des 寿司 avec les enfants du quartier.")).as("one Japanese word in French")
                .containsExactly(MemoryWords.Language.FRENCH);
        assertThat(words.ofText("We had lunch at the 寿 counter with the whole team after the review.")).as("read in English: stemmed")
                .contains("lunch", "review", "counter");
        // controls: texts mostly in those scripts, with a Latin name or two, keep their own reading
        assertThat(words.languagesOf("我和Anna上周去了Berlin。")).containsExactly(MemoryWords.Language.CJK);
        assertThat(words.languagesOf("私はGoogleで働いています")).containsExactly(MemoryWords.Language.CJK);
        assertThat(words.languagesOf("Я работаю в IBM уже три года.")).containsExactly(MemoryWords.Language.RUSSIAN);
        assertThat(words.ofText("我和Anna上周去了Berlin。")).contains("上周", "anna", "berlin");
    }

    @Test
    void aChineseSentenceIsPairsOfCharactersNotOneToken() {
        assertThat(words.ofText("我们的办公室在上海。")).contains("办公", "公室", "上海", "海").doesNotContain("我们的办公室在上海");
        assertThat(words.ofQuery("办公室在哪里")).as("a question's characters pair only").containsExactly("办公", "公室", "室在", "在哪", "哪里");
        assertThat(words.ofQuery("猫")).containsExactly("猫");
    }

    @Test
    void anAmbiguousQuestionOrsEveryReading() {
        assertThat(words.ofQuery("Hunde bellen")).as("German's stems and English's").contains("hund", "bell", "bellen");
        assertThat(words.ofText("Hunde bellen")).as("a memory is read once").hasSize(2);
    }

    @Test
    void apostrophesSplitWordsAndTermsAreQuotedForLucene() {
        assertThat(words.ofText("Caroline's books")).contains("carolin", "book");
        assertThat(words.ofText("Je vais à l'hôpital demain.")).contains("hôpital");
        assertThat(MemoryWords.luceneQuery(List.of("a\"b", "c"))).isEqualTo("\"a\\\"b\" OR \"c\"");
        assertThat(MemoryWords.luceneQuery(List.of())).isEmpty();
    }

    @Test
    void withoutStemmingWordsStayAsWrittenAndStopWordsStillGo() {
        assertThat(MemoryWords.of(false).ofText("Die Hunde bellen laut im Garten.")).containsExactly("hunde", "bellen", "laut", "garten");
        assertThat(MemoryWords.of(false).version()).isNotEqualTo(words.version());
    }
}
