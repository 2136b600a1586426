package dev.openrag.knowledge.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.contextual.LlmGraphExtractor;
import dev.openrag.localstack.test.LlmApiStandIn;

/**
 * Structured output for graph extraction through LangChain4j's OpenAI client against
 * {@link LlmApiStandIn} (a STAND-IN, no LLM runs here): valid JSON is read; invalid JSON is asked
 * for again once with the validation error; still invalid, or a failed call, leaves the chunk to
 * the rules with the reason, and every call's tokens are counted.
 */
class LlmGraphExtractorAgainstApiStandInTest {

    private static final String VALID = "{\"entities\":[{\"name\":\"Ada Lovelace\",\"type\":\"Person\"},"
            + "{\"name\":\"Analytical Engine\",\"type\":\"product\"}],"
            + "\"relations\":[{\"from\":\"Ada Lovelace\",\"to\":\"Analytical Engine\",\"type\":\"programmed\"}]}";

    private static LlmGraphExtractor extractor(LlmApiStandIn api, LlmProvider provider) {
        return new LlmGraphExtractor(LanguageModels.chat(new LlmSettings(provider, "stand-in", api.url(), "key",
                Duration.ofSeconds(5), 2, 0)));
    }

    @Test
    void readsEntitiesAndRelationsFromValidJson() throws Exception {
        try (LlmApiStandIn api = new LlmApiStandIn(0, request -> VALID)) {
            LlmGraphExtractor.Result result = extractor(api, LlmProvider.OPENAI).extract("Ada Lovelace wrote programs for the Analytical Engine.");

            assertThat(result.found().entities()).extracting(e -> e[0] + "/" + e[1])
                    .containsExactly("Ada Lovelace/person", "Analytical Engine/product");
            assertThat(result.found().relations()).extracting(r -> r[0] + " -" + r[2] + "-> " + r[1])
                    .containsExactly("Ada Lovelace -programmed-> Analytical Engine");
            assertThat(result.problem()).isNull();
            assertThat(api.requests).singleElement().satisfies(request -> assertThat(request.json()).isTrue());
            assertThat(result.usage().calls()).isEqualTo(1);
        }
    }

    @Test
    void invalidJsonIsRepairedOnceWithTheValidationErrorQuoted() throws Exception {
        AtomicInteger call = new AtomicInteger();
        // Anthropic has no JSON mode: its answers come fenced in Markdown, which is accepted
        try (LlmApiStandIn api = new LlmApiStandIn(0, request -> call.incrementAndGet() == 1
                ? "{\"entities\": \"Ada\"}" : "```json\n" + VALID + "\n```")) {
            LlmGraphExtractor.Result result = extractor(api, LlmProvider.ANTHROPIC).extract("Ada Lovelace and the Analytical Engine.");

            assertThat(result.found().entities()).hasSize(2);
            assertThat(api.requests).hasSize(2);
            assertThat(api.requests.get(1).user()).contains("\"entities\" must be an array").contains("{\"entities\": \"Ada\"}");
            assertThat(result.usage().calls()).isEqualTo(2);
            assertThat(result.usage().inputTokens()).isEqualTo(api.inputTokens.get());
        }
    }

    @Test
    void stillInvalidAfterTheRepairLeavesTheChunkToTheRulesWithTheReason() throws Exception {
        try (LlmApiStandIn api = new LlmApiStandIn(0, request -> "sorry, I cannot do that")) {
            LlmGraphExtractor.Result result = extractor(api, LlmProvider.GEMINI).extract("text");

            assertThat(result.found()).isNull();
            assertThat(result.problem()).startsWith("invalid JSON after one repair: not JSON");
            assertThat(api.requests).hasSize(2);
        }
    }

    @Test
    void entitiesWithoutNamesAndRelationsWithoutEndsAreInvalid() throws Exception {
        try (LlmApiStandIn api = new LlmApiStandIn(0, request -> "{\"entities\":[{\"type\":\"person\"}],\"relations\":[]}")) {
            assertThat(extractor(api, LlmProvider.OPENAI).extract("text").problem()).contains("non-empty \"name\"");
        }
        try (LlmApiStandIn api = new LlmApiStandIn(0, request -> "{\"entities\":[],\"relations\":[{\"from\":\"a\"}]}")) {
            assertThat(extractor(api, LlmProvider.OPENAI).extract("text").problem()).contains("\"from\" and \"to\"");
        }
    }

    @Test
    void anUnreachableProviderLeavesTheChunkToTheRules() {
        int closed = dev.openrag.localstack.Ports.free();
        LlmGraphExtractor extractor = new LlmGraphExtractor(LanguageModels.chat(new LlmSettings(LlmProvider.OPENAI, "m",
                "http://127.0.0.1:" + closed, "key", Duration.ofSeconds(2), 1, 0)));

        LlmGraphExtractor.Result result = extractor.extract("text");

        assertThat(result.found()).isNull();
        assertThat(result.problem()).startsWith("call failed");
    }
}
