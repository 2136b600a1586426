package dev.openrag.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.llm.LanguageModels;
import dev.openrag.knowledge.llm.LlmProvider;
import dev.openrag.knowledge.llm.LlmSettings;
import dev.openrag.localstack.test.LlmApiStandIn;

/**
 * Which earlier memories a new one replaces, through LangChain4j's OpenAI client against
 * {@link LlmApiStandIn} (a STAND-IN, no LLM runs here): the model is shown the earlier memories
 * numbered and can name only those; anything else is repaired once, then replaces nothing.
 */
class LlmContradictionsAgainstApiStandInTest {

    private static final List<Memory> EARLIER = List.of(
            memory("lisbon", "Marguerite lives in Lisbon", 1_673_308_800_000L, "Marguerite"),
            memory("tiles", "Marguerite loves the blue tiles of Lisbon", 1_675_000_000_000L, null));
    private static final Memory PORTO = memory("porto", "I moved to Porto last week", 1_685_577_600_000L, "Marguerite");

    private static Memory memory(String id, String text, long occurredAt, String speaker) {
        return new Memory(id, "s", text, List.of(), false, 1, 1, null, null, null, List.of(), List.of(), occurredAt, speaker);
    }

    private static LlmContradictions contradictions(LlmApiStandIn api) {
        return new LlmContradictions(LanguageModels.chat(new LlmSettings(LlmProvider.OPENAI, "stand-in", api.url(), "key",
                Duration.ofSeconds(5), 2, 0)));
    }

    @Test
    void theModelSeesTheNumberedEarlierMemoriesAndItsNumbersBecomeTheirIds() throws Exception {
        try (LlmApiStandIn api = new LlmApiStandIn(0, request -> "{\"replaced\": [1]}")) {
            LlmContradictions.Result result = contradictions(api).replaced(PORTO, EARLIER);

            assertThat(result.replaced()).containsExactly("lisbon");
            assertThat(result.problem()).isNull();
            assertThat(result.usage().calls()).isEqualTo(1);
            LlmApiStandIn.Request asked = api.requests.get(0);
            assertThat(asked.json()).isTrue();
            assertThat(asked.user()).contains("<new>\n(2023-06-01) Marguerite: I moved to Porto last week\n</new>")
                    .contains("1. (2023-01-10) Marguerite: Marguerite lives in Lisbon\n2. (2023-01-29) Marguerite loves the blue tiles");
        }
        try (LlmApiStandIn api = new LlmApiStandIn(0, request -> "```json\n{\"replaced\": []}\n```")) {
            assertThat(contradictions(api).replaced(PORTO, EARLIER).replaced()).as("none replaced, fenced answer").isEmpty();
        }
    }

    @Test
    void numbersOfNoShownMemoryAreRepairedOnceThenReplaceNothing() throws Exception {
        AtomicInteger call = new AtomicInteger();
        try (LlmApiStandIn api = new LlmApiStandIn(0, request -> call.incrementAndGet() == 1 ? "{\"replaced\": [3]}" : "{\"replaced\": [2]}")) {
            LlmContradictions.Result result = contradictions(api).replaced(PORTO, EARLIER);
            assertThat(result.replaced()).containsExactly("tiles");
            assertThat(api.requests.get(1).user()).contains("only numbers of the earlier memories, 1 to 2, got 3");
        }
        // a memory's text that tries to steer the model gets nothing beyond the memories shown
        for (String answer : List.of("{\"replaced\": [\"lisbon\"]}", "{\"replaced\": [0, 1]}", "{\"replaced\": 1}", "replace all of them")) {
            try (LlmApiStandIn api = new LlmApiStandIn(0, request -> answer)) {
                LlmContradictions.Result result = contradictions(api).replaced(PORTO, EARLIER);
                assertThat(result.replaced()).as(answer).isEmpty();
                assertThat(result.problem()).as(answer).startsWith("invalid JSON after one repair");
                assertThat(api.requests).hasSize(2);
            }
        }
    }

    @Test
    void aFailedCallReplacesNothingAndNoEarlierMemoryMeansNoCall() throws Exception {
        try (LlmApiStandIn api = new LlmApiStandIn(0, request -> {
            throw new IllegalStateException("model crashed");
        })) {
            LlmContradictions.Result result = contradictions(api).replaced(PORTO, EARLIER);
            assertThat(result.replaced()).isEmpty();
            assertThat(result.problem()).startsWith("call failed");

            assertThat(contradictions(api).replaced(PORTO, List.of()).replaced()).isEmpty();
            assertThat(api.requests).hasSize(1);
        }
    }
}
