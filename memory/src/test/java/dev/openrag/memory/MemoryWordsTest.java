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
        // control: a memory in one language is read in it alone
        assertThat(words.ofText("Die Hunde bellen laut im Garten.")).containsExactly("hund", "bell", "laut", "gart");
    }

    @Test
    void aMemoryAndAQuestionInOneLanguageMeetOnTheSameStemsWhateverElseEachTiesWith() {
        // each memory ties (no stop word, or stop words of several languages) and is read in the first of them; each
        // question is plainly in the memory's language: every term of the memory (each word is in the question) is one of
        // the question's
        String[][] pairs = {
                {"Hunde bellen", "Bellen die Hunde nachts?"},
                {"Perros ladrando", "¿Los perros están ladrando?"},
                {"Chiens aboyant", "Est-ce que les chiens aboyant sont là?"},
                {"Katzen schlafen in Berlin", "Schlafen die Katzen in Berlin?"},
                {"Gatos durmiendo en Madrid", "¿Los gatos están durmiendo en Madrid?"},
                {"Visited Martina in Boston", "When did I visit Martina in Boston?"},
        };
        for (String[] pair : pairs) {
            assertThat(words.languagesOf(pair[0])).as(pair[0]).hasSizeGreaterThan(1);
            assertThat(words.languagesOf(pair[1])).as(pair[1]).hasSizeLessThan(words.languagesOf(pair[0]).size());
            assertThat(words.ofQuery(pair[1])).as(pair[1] + " finds " + pair[0]).containsAll(words.ofText(pair[0]));
        }
        // the reverse: a memory plainly in its language, a question that ties
        assertThat(words.ofQuery("Hunde bellen")).containsAll(words.ofText("Die Hunde bellen im Garten.").subList(0, 2));
        // controls: an English question is read in English alone; a German one's own function words are no terms in
        // another reading ("die" is no English stop word)
        assertThat(words.ofQuery("When did I visit Martina in Boston?")).containsExactly("visit", "martina", "boston");
        assertThat(words.ofQuery("Bellen die Hunde nachts?")).doesNotContain("die");
    }

    @Test
    void contractionsAndElisionsSayTheirOwnLanguageAndNoOther() {
        // English contractions ("m", "s", "t", "ve" of them are French or Italian stop words when split)
        for (String english : List.of("I'm sure it's fine.", "We've got two cats and they're loud.", "I don't drink coffee.",
                "I\u2019m sure it\u2019s fine.", "Don't forget it's Mum's birthday.")) {
            assertThat(words.languagesOf(english)).as(english).containsExactly(MemoryWords.Language.ENGLISH);
        }
        assertThat(words.ofText("I don't drink coffee, it's too strong.")).as("a contraction is a stop word whole")
                .containsExactly("drink", "coffe", "strong");
        // controls: French and Italian elisions still say French and Italian
        assertThat(words.languagesOf("J'ai vu qu'il pleuvait.")).containsExactly(MemoryWords.Language.FRENCH);
        assertThat(words.languagesOf("C'est l'hôtel d'Anne.")).containsExactly(MemoryWords.Language.FRENCH);
        assertThat(words.languagesOf("Parlo dell'amico di Marco.")).containsExactly(MemoryWords.Language.ITALIAN);
        assertThat(words.ofText("Je vais à l'hôpital demain.")).contains("hôpital").doesNotContain("l");
    }

    @Test
    void aNameThatIsAStopWordSomewhereDoesNotDecideTheLanguage() {
        assertThat(words.languagesOf("Will Smith moved to Berlin.")).containsExactly(MemoryWords.Language.ENGLISH);
        assertThat(words.languagesOf("Per and Eva came.")).containsExactly(MemoryWords.Language.ENGLISH);
        assertThat(words.ofText("Per and Eva came.")).as("Per kept").contains("per", "eva");
        assertThat(words.languagesOf("Yesterday we met Alle and Jon.")).containsExactly(MemoryWords.Language.ENGLISH);
        assertThat(words.languagesOf("Gestern haben wir Will und Per getroffen.")).containsExactly(MemoryWords.Language.GERMAN);
        assertThat(words.languagesOf("Ayer vimos a Will y a Per en la playa.")).containsExactly(MemoryWords.Language.SPANISH);
        assertThat(words.languagesOf("Hier, nous avons vu Per et Will au marché.")).containsExactly(MemoryWords.Language.FRENCH);
        // controls: the same words as the function words they are still decide
        assertThat(words.languagesOf("Per la cena di sabato, Marco ha cucinato con Giulia.")).containsExactly(MemoryWords.Language.ITALIAN);
        assertThat(words.languagesOf("Ich will morgen nach Hamburg fahren.")).containsExactly(MemoryWords.Language.GERMAN);
        assertThat(words.languagesOf("MEETING WITH THE TEAM")).as("all capitals: the words as written")
                .containsExactly(MemoryWords.Language.ENGLISH);
    }

    @Test
    void aTextAllInCapitalisedWordsIsReadByItsFunctionWordsNotByANameAmongThem() {
        // a greeting or title in capitalised words: a name that is a function word elsewhere tells no language
        for (String greeting : List.of("Hi Will", "Hello Per", "Happy Birthday Will", "Hola Will", "Bonjour Will", "Thanks Alle")) {
            assertThat(words.languagesOf(greeting)).as(greeting).hasSize(MemoryWords.Language.LATIN.size());
            assertThat(words.ofText(greeting)).as(greeting + ": no word dropped as a function word").hasSize(greeting.split(" ").length);
        }
        // controls: titles whose capitalised function words say their language still do, in several languages
        assertThat(words.languagesOf("Meeting With The Team About The Budget")).containsExactly(MemoryWords.Language.ENGLISH);
        assertThat(words.languagesOf("Die Katze Auf Dem Dach")).containsExactly(MemoryWords.Language.GERMAN);
        assertThat(words.languagesOf("Ich Will Nach Hause")).containsExactly(MemoryWords.Language.GERMAN);
        assertThat(words.languagesOf("El Señor De Los Anillos")).containsExactly(MemoryWords.Language.SPANISH);
        assertThat(words.languagesOf("Le Petit Prince Et La Rose")).containsExactly(MemoryWords.Language.FRENCH);
        // a short sentence whose one function word opens it is read by that word: its lower-case words are no names
        // (one opener is one word of evidence: a language that lists it too ties, as Dutch does "die")
        for (Object[] told : new Object[][] {{"Die Katze schläft.", MemoryWords.Language.GERMAN},
                {"La reunión terminó.", MemoryWords.Language.SPANISH}, {"Le chien aboie.", MemoryWords.Language.FRENCH},
                {"The cat sleeps.", MemoryWords.Language.ENGLISH}}) {
            assertThat(words.languagesOf((String) told[0])).as((String) told[0]).contains((MemoryWords.Language) told[1])
                    .hasSizeLessThan(MemoryWords.Language.LATIN.size());
        }
        // and the same greeting in a sentence is read by the sentence
        assertThat(words.languagesOf("Hi Will, the meeting is at noon.")).containsExactly(MemoryWords.Language.ENGLISH);
        assertThat(words.languagesOf("Hallo Will, wir treffen uns um zwölf.")).containsExactly(MemoryWords.Language.GERMAN);
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
