package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** What the LoCoMo bench reads (turns and session dates only) and how it scores. */
class LocomoBenchTest {

    private static final String CONVERSATION = """
            {"speaker_a": "Caroline", "speaker_b": "Melanie",
             "session_1_date_time": "1:56 pm on 8 May, 2023",
             "session_1": [
               {"speaker": "Caroline", "dia_id": "D1:1", "text": "I went to a LGBTQ support group yesterday."},
               {"speaker": "Melanie", "dia_id": "D1:2", "text": "Look at this!", "blip_caption": "a photo of a sunset"}],
             "session_1_observation": {"Caroline": [["must never be read", "D1:1"]]},
             "session_1_summary": "must never be read either",
             "qa": [
               {"question": "When did Caroline go to the support group?", "answer": "7 May 2023", "evidence": ["D1:1"], "category": 2},
               {"question": "What did they talk about?", "answer": "x", "evidence": ["D1:1; D1:2", "D:1:2"], "category": 1},
               {"question": "Unanswerable?", "adversarial_answer": "x", "evidence": ["D1:2"], "category": 5},
               {"question": "No evidence", "answer": "x", "evidence": ["D"], "category": 4}]}
            """;

    @Test
    void onlyTurnsAndSessionDatesGoIntoMemory() throws Exception {
        JsonNode conversation = new ObjectMapper().readTree(CONVERSATION);
        List<LocomoBench.Turn> turns = LocomoBench.turns(conversation);
        assertThat(turns).extracting(LocomoBench.Turn::memoryText).containsExactly(
                "[1:56 pm on 8 May, 2023] Caroline: I went to a LGBTQ support group yesterday.",
                "[1:56 pm on 8 May, 2023] Melanie: Look at this! [shares a photo: a photo of a sunset]");
        assertThat(turns).extracting(LocomoBench.Turn::memoryText).noneMatch(text -> text.contains("never be read"));
        assertThat(LocomoBench.isoTime("1:56 pm on 8 May, 2023")).isEqualTo("2023-05-08T13:56:00Z");
    }

    @Test
    void questionsOfCategoriesOneToFourWithCleanedEvidence() throws Exception {
        List<LocomoBench.Question> questions = LocomoBench.questions(new ObjectMapper().readTree(CONVERSATION));
        assertThat(questions).extracting(LocomoBench.Question::category).containsExactly(2, 1);
        assertThat(questions.get(1).evidence()).containsExactly("D1:1", "D1:2");
    }

    @Test
    void recallIsTheShareOfEvidenceInTheTopK() {
        List<String> ranked = List.of("D1:9", "D1:8", "D1:7", "D1:6", "D1:5", "D1:1", "D1:4");
        assertThat(LocomoBench.recall(ranked, Set.of("D1:1", "D1:2"))).containsExactly(0.0, 0.5, 0.5);
        assertThat(LocomoBench.recall(List.of(), Set.of("D1:1"))).containsExactly(0.0, 0.0, 0.0);
    }
}
