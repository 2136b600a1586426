package dev.openrag.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Locale;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BinaryNode;

import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.filter.DocumentFilters;
import dev.openrag.knowledge.llm.LlmProvider;
import dev.openrag.knowledge.text.FulltextQuery;

/** Role ids, provider names and search words keep their ASCII i under a Turkish default locale (dotless ı, dotted İ). */
class TurkishLocaleTest {

    private Locale locale;

    @BeforeEach
    void turkish() {
        locale = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag("tr-TR"));
    }

    @AfterEach
    void restore() {
        Locale.setDefault(locale);
    }

    @Test
    void theDefaultLocaleReallyIsTurkish() {
        assertThat("ADMIN".toLowerCase()).isEqualTo("admın");
    }

    @Test
    void rolesReadAndWriteTheirAsciiIds() throws Exception {
        assertThat(Role.ADMIN.id()).isEqualTo("admin");
        assertThat(Role.of("ADMIN")).isEqualTo(Role.ADMIN);
        assertThat(Role.of(" Write ")).isEqualTo(Role.WRITE);
        ObjectMapper json = new ObjectMapper();
        assertThat(json.writeValueAsString(Role.WRITE)).isEqualTo("\"write\"");
        assertThat(json.readValue("\"admin\"", Role.class)).isEqualTo(Role.ADMIN);
    }

    @Test
    void providersAreFoundWhateverTheirCase() {
        assertThat(LlmProvider.of("GEMINI", "openrag.llm.provider")).isEqualTo(LlmProvider.GEMINI);
        assertThat(LlmProvider.of("OpenAI", "openrag.llm.provider")).isEqualTo(LlmProvider.OPENAI);
    }

    @Test
    void searchWordsAreLowerCasedAsAscii() {
        assertThat(FulltextQuery.words("INDEX Kafka-TOPIC")).containsExactly("index", "kafka", "topic");
    }

    @Test
    void aFiltersErrorNamesTheJsonKindInAsciiLetters() throws Exception {
        assertThatThrownBy(() -> DocumentFilters.parse(BinaryNode.valueOf(new byte[] {1}))).hasMessageEndingWith("got binary");
        // the control: the kinds named by hand read the same
        assertThatThrownBy(() -> DocumentFilters.parse(new ObjectMapper().readTree("[1]"))).hasMessageEndingWith("got an array");
    }
}
