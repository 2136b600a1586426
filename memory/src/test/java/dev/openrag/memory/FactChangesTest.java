package dev.openrag.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Suggested supersessions: by a person's fact, by a change cue on the same subject, and never for a different subject. */
class FactChangesTest {

    private static Memory memory(String id, String text, long occurredAt) {
        return new Memory(id, "s", text, List.of(), false, 0, 0, null, null, null, List.of(), List.of(), occurredAt, null);
    }

    private static List<FactChanges.Suggestion> suggested(Memory memory, Memory... nearest) {
        return FactChanges.byRules(memory, List.of(nearest), StatedFacts.People.NONE);
    }

    @Test
    void aChangeCueOnTheSameSubjectSuggestsTheNearestOlderMemory() {
        Memory mysql = memory("mysql", "The staging database is MySQL 8 on db-stage-1.", 10);
        Memory other = memory("other", "The production cache is Redis 7.", 10);
        List<FactChanges.Suggestion> found = suggested(
                memory("pg", "Update: the staging database was migrated from MySQL to PostgreSQL 16 on db-stage-2.", 20), mysql, other);
        assertThat(found).extracting(FactChanges.Suggestion::oldId).containsExactly("mysql");
        assertThat(found.get(0).reason()).startsWith("cue ");
        assertThat(found.get(0).fact()).contains("staging").contains("databas");

        Memory bullets = memory("bullets", "The user prefers bullet points in answers.", 10);
        assertThat(suggested(memory("paragraphs", "The user now prefers short paragraphs instead of bullet points.", 20), bullets))
                .extracting(FactChanges.Suggestion::oldId).containsExactly("bullets");
    }

    @Test
    void withoutACueOrASharedSubjectNothingIsSuggested() {
        Memory proxy = memory("proxy", "Nginx works as a reverse proxy in front of the billing service.", 10);
        assertThat(suggested(memory("lb", "Nginx works as a load balancer for the search API.", 20), proxy)).as("no cue, no person").isEmpty();
        assertThat(suggested(memory("cat", "I now have a cat named Miso.", 20), proxy)).as("a cue, another subject").isEmpty();
        Memory later = memory("later", "The staging database is MySQL 8 on db-stage-1.", 30);
        assertThat(suggested(memory("pg", "Update: the staging database was migrated to PostgreSQL 16.", 20), later))
                .as("an older memory never replaces a newer one").isEmpty();
    }

    @Test
    void theWordsTwoMemoriesShareLeaveOutEachLanguagesFunctionWords() {
        // function words of German, Spanish and French (Lucene's stop sets) are no subject two memories share
        assertThat(FactChanges.sharedWords("Die Datenbank ist jetzt auf dem neuen Server.", "Die Katze ist auf dem Sofa.")).isEmpty();
        assertThat(FactChanges.sharedWords("El servidor de la empresa está en el sótano.", "La casa de mi madre está en el centro.")).isEmpty();
        assertThat(FactChanges.sharedWords("Nous avons mis la base de données sur le serveur.", "Nous avons vu le film sur la plage.")).isEmpty();
        // controls: content words shared in those languages and in English still count
        assertThat(FactChanges.sharedWords("Die Datenbank läuft auf dem Server db-2.", "Die Datenbank läuft auf dem Server db-1.")).hasSizeGreaterThanOrEqualTo(2);
        assertThat(FactChanges.sharedWords("The staging database is MySQL 8.", "The staging database moved to PostgreSQL."))
                .contains("stage", "databas").doesNotContain("the", "is");
    }

    @Test
    void aPersonsFactNamesTheFactAndOnlyItsWords() {
        Memory lisbon = memory("lisbon", "I live in Lisbon and I prefer tabs over spaces.", 10);
        List<FactChanges.Suggestion> found = suggested(memory("porto", "I moved to Porto last month.", 20), lisbon);
        assertThat(found).extracting(FactChanges.Suggestion::oldId).containsExactly("lisbon");
        assertThat(found.get(0).fact()).isEqualTo("residence of i: lisbon → porto");

        StatedFacts.People ann = StatedFacts.People.of(List.of("Ann"), null);
        List<FactChanges.Suggestion> hers = FactChanges.byRules(memory("acme2", "Ann works at Globex", 20),
                List.of(memory("acme1", "Ann works at Acme", 10)), ann);
        assertThat(hers).extracting(FactChanges.Suggestion::oldId).containsExactly("acme1");
    }

    @Test
    void theModelsAnswerBecomesSuggestionsOfEarlierMemoriesOnly() {
        Memory lisbon = memory("lisbon", "Marguerite lives in Lisbon", 10);
        Memory later = memory("later", "Marguerite lives in Faro", 40);
        List<FactChanges.Suggestion> found = FactChanges.byModel(memory("porto", "Marguerite moved to Porto", 20), List.of(lisbon, later), "stand-in");
        assertThat(found).extracting(FactChanges.Suggestion::oldId).containsExactly("lisbon");
        assertThat(found.get(0).reason()).contains("stand-in");
        assertThat(found.get(0).link().type()).isEqualTo(Memory.SUGGESTED_SUPERSEDES);
    }
}
