package dev.openrag.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class MemoryEntitiesTest {

    private static List<String> names(String text, String speaker) {
        return MemoryEntities.of(text, speaker).stream().map(MemoryEntities.Entity::name).toList();
    }

    @Test
    void runsOfCapitalisedWordsAreEntities() {
        assertThat(names("We drove to Lake Tahoe with Jolene and met someone from the Bank of America there.", null))
                .containsExactly("Lake Tahoe", "Jolene", "Bank of America");
        assertThat(MemoryEntities.of("we met Jolene's brother", null)).extracting(MemoryEntities.Entity::key)
                .containsExactly("jolene");
    }

    @Test
    void greetingsCapitalsMonthsPronounsAndTheSpeakerAreNot() {
        assertThat(names("[1:56 pm on 8 May, 2023] Caroline: Hey Mel! Good to see you. I went to the LGBTQ support group.",
                "Caroline")).containsExactly("Mel", "LGBTQ");
        assertThat(names("Thanks! Wow, that sounds great. Went to Paris on Monday.", null)).containsExactly("Paris");
        assertThat(names("Jolene adopted a greyhound. Biscuit is two.", null)).containsExactly("Jolene", "Biscuit");
        // a capital that may only be the sentence's is an uncertain name
        assertThat(MemoryEntities.of("Jolene adopted a dog called Biscuit", null)).containsExactly(
                new MemoryEntities.Entity("jolene", "Jolene", false), new MemoryEntities.Entity("biscuit", "Biscuit", true));
        assertThat(names("", null)).isEmpty();
        assertThat(names("no capitals at all, only words", null)).isEmpty();
    }

    @Test
    void aRunOpeningASentenceKeepsItsNameAndTheCountIsCapped() {
        assertThat(names("Hi Maria, how was it?", null)).containsExactly("Maria");
        StringBuilder many = new StringBuilder("we met");
        for (char c = 'A'; c <= 'Z'; c++) {
            many.append(", ").append(c).append("ndre");
        }
        assertThat(MemoryEntities.of(many.toString(), null)).hasSize(MemoryEntities.MAX_PER_MEMORY);
    }
}
