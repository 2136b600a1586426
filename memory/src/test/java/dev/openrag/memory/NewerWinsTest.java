package dev.openrag.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The newer memory goes right above the older one for questions about the changed fact, and only for those. */
class NewerWinsTest {

    private static final List<String> DATABASE = List.of("stage", "databas", "mysql");

    private static List<String> ids(List<NewerWins.Placed> placed) {
        return placed.stream().map(NewerWins.Placed::id).toList();
    }

    @Test
    void aNewerMemoryLowerDownOrAbsentGoesRightAboveTheOlder() {
        Map<String, List<NewerWins.Newer>> newerOf = Map.of("old", List.of(new NewerWins.Newer("new", 20, DATABASE)));
        assertThat(ids(NewerWins.order("Which database does staging use?", List.of("a", "old", "b", "new"), newerOf)))
                .containsExactly("a", "new", "old", "b");
        List<NewerWins.Placed> pulled = NewerWins.order("Which database does staging use?", List.of("old", "b"), newerOf);
        assertThat(ids(pulled)).containsExactly("new", "old", "b");
        assertThat(pulled.get(0).above()).isEqualTo("old");
        assertThat(ids(NewerWins.order("Which database does staging use?", List.of("new", "old"), newerOf))).containsExactly("new", "old");
    }

    @Test
    void aQuestionAboutSomethingElseKeepsTheOrder() {
        Map<String, List<NewerWins.Newer>> newerOf = Map.of("old", List.of(new NewerWins.Newer("new", 20, DATABASE)));
        assertThat(ids(NewerWins.order("What sits in front of the billing service?", List.of("old", "b"), newerOf)))
                .containsExactly("old", "b");
        assertThat(ids(NewerWins.order(null, List.of("old", "b"), newerOf))).containsExactly("old", "b");
    }

    @Test
    void aChainOfChangesPutsTheNewestFirst() {
        Map<String, List<NewerWins.Newer>> newerOf = Map.of(
                "a", List.of(new NewerWins.Newer("b", 20, DATABASE)),
                "b", List.of(new NewerWins.Newer("c", 30, DATABASE)));
        assertThat(ids(NewerWins.order("staging database?", List.of("a", "b", "c"), newerOf))).containsExactly("c", "b", "a");
    }
}
