package dev.openrag.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code openrag bench locomo --tune}: recall over the tune conversations and over the others,
 * against a stand-in for mcp-memory ({@link McpStandIn}) that finds the evidence of conversation "a"
 * first and never finds conversation "b"'s.
 */
class LocomoBenchAgainstMcpStandInTest {

    @TempDir
    Path data;

    private McpStandIn mcp;

    @BeforeEach
    void start() throws Exception {
        mcp = new McpStandIn((tool, arguments) -> !"search_memory".equals(tool) ? Map.of()
                : Map.of("results", List.of(Map.of("memory", Map.of("tags",
                        List.of(arguments.path("scope").asText().startsWith("locomo-a-") ? "D1:1" : "D1:2"))))));
        for (String name : List.of("a", "b")) {
            Files.writeString(data.resolve(name + ".json"), """
                    {"speaker_a": "Ann", "speaker_b": "Bo", "session_1_date_time": "1:56 pm on 8 May, 2023",
                     "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a cat."},
                                   {"speaker": "Bo", "dia_id": "D1:2", "text": "Lovely!"}],
                     "qa": [{"question": "What did Ann adopt?", "answer": "a cat", "evidence": ["D1:1"], "category": 4}]}
                    """);
        }
    }

    @AfterEach
    void stop() {
        mcp.close();
    }

    private String[] bench(String... more) {
        List<String> args = new ArrayList<>(List.of("bench", "locomo", "--data", data.toString(),
                "--mcp-url", mcp.url()));
        args.addAll(List.of(more));
        return RecordingServer.runWithErrors(args.toArray(String[]::new));
    }

    @Test
    void theTuneHalfAndTheOthersArePrintedBeforeTheLastLine() {
        String[] run = bench("--tune", "a");
        assertThat(run[0]).as(run[2]).isEqualTo("0");
        List<String> lines = run[1].strip().lines().toList();
        assertThat(lines).contains("tune (a) evidence_recall@5=1.0000 @10=1.0000 @20=1.0000 questions=1",
                "check (the others) evidence_recall@5=0.0000 @10=0.0000 @20=0.0000 questions=1");
        assertThat(lines.get(lines.size() - 1)).isEqualTo("locomo evidence_recall@5=0.5000 @10=0.5000 @20=0.5000 questions=2");

        assertThat(bench()[1]).as("no split unless asked").doesNotContain("tune (").doesNotContain("check (");
    }

    @Test
    void aTuneHalfThatIsNotThereOrLeavesNothingToCheckIsAClearError() {
        String[] unknown = bench("--tune", "a,zz");
        assertThat(unknown[0]).isNotEqualTo("0");
        assertThat(unknown[2]).contains("--tune names no conversation of").contains("zz").contains("(there: a, b)");

        String[] everything = bench("--tune", "a,b");
        assertThat(everything[0]).isNotEqualTo("0");
        assertThat(everything[2]).contains("--tune names every conversation").contains("leave some to check on");
    }

    @Test
    void askedAtTheEndEachQuestionCountsTimeFromItsConversationsLastSession() throws Exception {
        List<String> referenceTimes = new CopyOnWriteArrayList<>();
        List<Double> speakerWeights = new CopyOnWriteArrayList<>();
        try (McpStandIn recording = new McpStandIn((tool, arguments) -> {
            if ("search_memory".equals(tool)) {
                referenceTimes.add(arguments.path("referenceTime").asText("now"));
                speakerWeights.add(arguments.path("otherSpeakerWeight").asDouble(1));
            }
            return Map.of("results", List.of());
        })) {
            Path later = Files.createDirectory(data.resolve("later"));
            Files.writeString(later.resolve("c.json"), """
                    {"speaker_a": "Ann", "speaker_b": "Bo",
                     "session_1_date_time": "1:56 pm on 8 May, 2023", "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "Hi."}],
                     "session_2_date_time": "10:15 am on 20 June, 2023", "session_2": [{"speaker": "Bo", "dia_id": "D2:1", "text": "Back."}],
                     "qa": [{"question": "What did Ann do in June?", "answer": "-", "evidence": ["D2:1"], "category": 2}]}
                    """);
            String[] end = RecordingServer.runWithErrors("bench", "locomo", "--data", later.toString(), "--mcp-url", recording.url(),
                    "--asked-at-the-end");
            String[] now = RecordingServer.runWithErrors("bench", "locomo", "--data", later.toString(), "--mcp-url", recording.url());
            assertThat(end[0]).as(end[2]).isEqualTo("0");
            assertThat(now[0]).as(now[2]).isEqualTo("0");
        }
        assertThat(referenceTimes).containsExactly("2023-06-20T10:15:00Z", "now");
        // the speaker focus chosen on LoCoMo is asked for on each of the bench's searches, whatever the server's setting
        assertThat(speakerWeights).containsOnly(0.5).hasSize(2);
    }
}
