package dev.openrag.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class MemoryEntitiesTest {

    private static List<String> names(String text, String speaker) {
        return MemoryEntities.of(text, speaker).stream().map(MemoryEntities.Entity::name).toList();
    }

    /** The names search may follow at once: capitalised away from a sentence's start. */
    private static List<String> certain(String text) {
        return MemoryEntities.of(text, null).stream().filter(MemoryEntities.Entity::certain).map(MemoryEntities.Entity::name).toList();
    }

    private static List<String> uncertain(String text) {
        return MemoryEntities.of(text, null).stream().filter(entity -> !entity.certain()).map(MemoryEntities.Entity::name).toList();
    }

    @Test
    void runsOfCapitalisedWordsAreEntities() {
        assertThat(names("We drove to Lake Tahoe with Jolene and met someone from the Bank of America there.", null))
                .containsExactly("Lake Tahoe", "Jolene", "Bank of America");
        assertThat(MemoryEntities.of("we met Jolene's brother", null)).extracting(MemoryEntities.Entity::key)
                .containsExactly("jolene");
    }

    @Test
    void stopWordsMonthsAndTheSpeakerAreNeverEntitiesAndASentencesFirstCapitalIsUncertain() {
        // the speaker, the pronoun and the month are no entities; the greeting opening the sentence is an uncertain one
        assertThat(MemoryEntities.of("[1:56 pm on 8 May, 2023] Caroline: Hey Mel! Good to see you. I went to the LGBTQ support group.",
                "Caroline")).filteredOn(MemoryEntities.Entity::certain).extracting(MemoryEntities.Entity::name)
                .containsExactly("Mel", "LGBTQ");
        assertThat(certain("Thanks! Wow, that sounds great. Went to Paris on Monday.")).containsExactly("Paris");
        assertThat(names("Thanks! Wow, that sounds great. Went to Paris on Monday.", null)).doesNotContain("Monday");
        assertThat(MemoryEntities.of("Jolene adopted a dog called Biscuit", null)).containsExactly(
                new MemoryEntities.Entity("jolene", "Jolene", false), new MemoryEntities.Entity("biscuit", "Biscuit", true));
        assertThat(names("", null)).isEmpty();
        assertThat(names("no capitals at all, only words", null)).isEmpty();
    }

    @Test
    void aPrefixBeforeAColonIsNeverACertainName() {
        for (String prefix : List.of("Update", "Note", "TODO", "Reminder", "Nota", "Hinweis")) {
            String text = prefix + ": the release moved to Friday and Priya owns it.";
            assertThat(certain(text)).as(text).containsExactly("Priya");
            assertThat(uncertain(text)).as(text).containsExactly(prefix);
        }
    }

    @Test
    void eachLanguageKeepsItsNamesAndDropsItsOwnStopWordsAndMonths() {
        // English: the sentence's first word uncertain, the names certain, the pronoun and the month nothing
        assertThat(certain("Yesterday I visited Martina in Boston, in June.")).containsExactly("Martina", "Boston");
        assertThat(uncertain("Yesterday I visited Martina in Boston, in June.")).containsExactly("Yesterday");
        // German: "Im" is a stop word and "Mai" a month of the text's language
        assertThat(certain("Gestern hat mich Jonas in Hamburg besucht.")).containsExactly("Jonas", "Hamburg");
        assertThat(uncertain("Gestern hat mich Jonas in Hamburg besucht.")).containsExactly("Gestern");
        assertThat(names("Im Mai war ich mit Lena in Wien.", null)).containsExactly("Lena", "Wien");
        // Spanish: the inverted mark opens the sentence too; "El" and "Mi" are stop words
        assertThat(certain("¿Conoces a Pedro? Mi hermana vive en Sevilla desde marzo.")).containsExactly("Pedro", "Sevilla");
        assertThat(uncertain("¿Conoces a Pedro? Mi hermana vive en Sevilla desde marzo.")).containsExactly("Conoces");
        // French: an elided stop word is read off ("l'Espagne" → "Espagne"), "Nous" is a stop word
        assertThat(certain("Hier, nous avons dîné avec Camille à Lyon.")).containsExactly("Camille", "Lyon");
        assertThat(uncertain("Hier, nous avons dîné avec Camille à Lyon.")).containsExactly("Hier");
        assertThat(names("Nous rentrons de l'Espagne en juillet avec Hugo.", null)).containsExactly("Espagne", "Hugo");
        // Chinese: a Latin name inside a sentence of characters is found; characters alone have no capitals to go by
        assertThat(certain("我和Anna上周去了Berlin。")).containsExactly("Anna", "Berlin");
        assertThat(names("我们的办公室在上海。", null)).isEmpty();
    }

    @Test
    void whereLanguagesTieAWordIsDroppedOnlyAsAStopWordOfEachOfThem() {
        // "Per" opening a sentence is no Italian stop word where "and" says English
        assertThat(certain("Yesterday Per and Eva came to Oslo.")).containsExactly("Per", "Eva", "Oslo");
        assertThat(uncertain("Per and Eva came.")).containsExactly("Per");
        // "alle" is a German, Danish and Norwegian stop word, not an English one; "and" ties them with English
        assertThat(certain("We met Alle and Jon.")).containsExactly("Alle", "Jon");
        // controls: a stop word of every tied language, and a month's name in one of them, still go
        assertThat(MemoryWords.of(false).languagesOf("Yesterday I visited Martina in Boston, in June.")).as("English and Italian tie")
                .hasSizeGreaterThan(1);
        assertThat(names("Yesterday I visited Martina in Boston, in June.", null)).doesNotContain("I", "June");
        // in Italian alone, "Per" opening a sentence is the stop word it is there
        assertThat(names("Per la cena di sabato, Marco ha cucinato con Giulia.", null)).containsExactly("Marco", "Giulia");
        // one foreign character does not make a Latin text's names CJK's (which keeps every capitalised word)
        assertThat(names("The 寿 counter is where I met Eva.", null)).containsExactly("Eva");
    }

    @Test
    void aRunOpeningASentenceIsUncertainAndItsRestCertainAndTheCountIsCapped() {
        assertThat(MemoryEntities.of("Hi Maria, how was it?", null)).containsExactly(
                new MemoryEntities.Entity("hi maria", "Hi Maria", false), new MemoryEntities.Entity("maria", "Maria", true));
        StringBuilder many = new StringBuilder("we met");
        for (char c = 'A'; c <= 'Z'; c++) {
            many.append(", ").append(c).append("ndre");
        }
        assertThat(MemoryEntities.of(many.toString(), null)).hasSize(MemoryEntities.MAX_PER_MEMORY);
    }
}
