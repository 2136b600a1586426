package dev.openrag.knowledge.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.openrag.knowledge.port.ChatModel.Prompt;
import dev.openrag.knowledge.port.ChatModel.Reply;
import dev.openrag.localstack.test.LlmApiStandIn;

/**
 * OpenAI (and any server speaking its API), Anthropic and Gemini through LangChain4j's real
 * provider clients against {@link LlmApiStandIn}, a local HTTP STAND-IN speaking each API (no
 * hosted API is reachable here): chat and streaming, JSON mode, token accounting read from the
 * responses, 429 with Retry-After, timeouts, bounded concurrency, prompt caching.
 */
class HostedProvidersAgainstApiStandInTest {

    private static final String KEY = "sk-test-secret-key";

    private LlmApiStandIn api;

    @AfterEach
    void stop() {
        if (api != null) {
            api.close();
        }
    }

    private LlmChat chat(LlmProvider provider, Duration timeout, int maxInFlight, int maxRetries) {
        return LanguageModels.chat(new LlmSettings(provider, "stand-in-model", api.url(), KEY, timeout, maxInFlight, maxRetries));
    }

    private static String echo(LlmApiStandIn.Request request) {
        return request.json() ? "{\"entities\": []}" : "You asked: " + request.user();
    }

    @ParameterizedTest
    @EnumSource(value = LlmProvider.class, names = {"OPENAI", "ANTHROPIC", "GEMINI"})
    void chatsAndCountsTheTokensTheProviderReported(LlmProvider provider) throws Exception {
        api = new LlmApiStandIn(0, HostedProvidersAgainstApiStandInTest::echo);

        Reply reply = chat(provider, Duration.ofSeconds(5), 2, 0).chat(new Prompt("Be brief.", "what is a trellis?", false));

        assertThat(reply.text()).isEqualTo("You asked: what is a trellis?");
        assertThat(api.requests).singleElement().satisfies(request -> {
            assertThat(request.api()).isEqualTo(provider.id());
            assertThat(request.model()).isEqualTo("stand-in-model");
            assertThat(request.system()).isEqualTo("Be brief.");
        });
        assertThat(reply.usage().calls()).isEqualTo(1);
        assertThat(reply.usage().inputTokens()).isEqualTo(api.inputTokens.get()).isEqualTo(8);
        assertThat(reply.usage().outputTokens()).isEqualTo(api.outputTokens.get()).isEqualTo(LlmApiStandIn.tokens(reply.text()));
    }

    @ParameterizedTest
    @EnumSource(value = LlmProvider.class, names = {"OPENAI", "ANTHROPIC", "GEMINI"})
    void streamsTokenByTokenWithUsage(LlmProvider provider) throws Exception {
        api = new LlmApiStandIn(0, HostedProvidersAgainstApiStandInTest::echo);
        List<String> tokens = new CopyOnWriteArrayList<>();

        Reply reply = chat(provider, Duration.ofSeconds(5), 2, 0).stream(Prompt.of("name three herbs"), tokens::add);

        assertThat(api.requests).singleElement().satisfies(request -> assertThat(request.stream()).isTrue());
        assertThat(tokens).hasSizeGreaterThan(3);
        assertThat(String.join("", tokens)).isEqualTo(reply.text()).isEqualTo("You asked: name three herbs");
        assertThat(reply.usage().outputTokens()).isEqualTo(LlmApiStandIn.tokens(reply.text()));
        assertThat(reply.usage().inputTokens()).isEqualTo(LlmApiStandIn.tokens("name three herbs"));
    }

    @ParameterizedTest
    @EnumSource(value = LlmProvider.class, names = {"OPENAI", "ANTHROPIC", "GEMINI"})
    void sendsATemperatureOnlyWhenOneIsSet(LlmProvider provider) throws Exception {
        api = new LlmApiStandIn(0, HostedProvidersAgainstApiStandInTest::echo);

        chat(provider, Duration.ofSeconds(5), 2, 0).chat(Prompt.of("default"));
        LanguageModels.chat(new LlmSettings(provider, "stand-in-model", api.url(), KEY, Duration.ofSeconds(5), 2, 0, 0.0))
                .chat(Prompt.of("repeatable"));

        assertThat(api.requests.get(0).body().toString()).doesNotContain("temperature");
        assertThat(api.requests.get(1).body().toString()).contains("\"temperature\":0.0");
    }

    @ParameterizedTest
    @EnumSource(value = LlmProvider.class, names = {"OPENAI", "GEMINI"})
    void asksForJsonInTheProvidersJsonMode(LlmProvider provider) throws Exception {
        api = new LlmApiStandIn(0, HostedProvidersAgainstApiStandInTest::echo);

        Reply reply = chat(provider, Duration.ofSeconds(5), 2, 0).chat(new Prompt(null, "extract", true));

        assertThat(api.requests).singleElement().satisfies(request -> assertThat(request.json()).isTrue());
        assertThat(reply.text()).isEqualTo("{\"entities\": []}");
    }

    @ParameterizedTest
    @EnumSource(value = LlmProvider.class, names = {"OPENAI", "ANTHROPIC", "GEMINI"})
    void waitsAsLongAsRetryAfterSaysThenSucceeds(LlmProvider provider) throws Exception {
        api = new LlmApiStandIn(0, HostedProvidersAgainstApiStandInTest::echo).rateLimitNext(1, "1");

        Reply reply = chat(provider, Duration.ofSeconds(5), 2, 2).chat(Prompt.of("hello"));

        assertThat(reply.text()).isEqualTo("You asked: hello");
        assertThat(api.arrivals).hasSize(2);
        assertThat(Duration.ofNanos(api.arrivals.get(1) - api.arrivals.get(0))).as("honours Retry-After: 1")
                .isGreaterThanOrEqualTo(Duration.ofMillis(950));
    }

    @ParameterizedTest
    @EnumSource(value = LlmProvider.class, names = {"OPENAI", "ANTHROPIC", "GEMINI"})
    void aRetryAfterLongerThanTheMostWeWaitGivesUpAtOnceAndSaysWhy(LlmProvider provider) throws Exception {
        api = new LlmApiStandIn(0, HostedProvidersAgainstApiStandInTest::echo).rateLimitNext(5, "3600");

        assertThatThrownBy(() -> chat(provider, Duration.ofSeconds(5), 2, 3).chat(Prompt.of("hello")))
                .hasStackTraceContaining("HTTP 429").satisfies(e -> assertThat(e.toString()).doesNotContain(KEY));
        assertThat(api.arrivals).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(value = LlmProvider.class, names = {"OPENAI", "ANTHROPIC", "GEMINI"})
    void aSlowProviderTimesOut(LlmProvider provider) throws Exception {
        api = new LlmApiStandIn(3_000, HostedProvidersAgainstApiStandInTest::echo);
        long started = System.nanoTime();

        assertThatThrownBy(() -> chat(provider, Duration.ofMillis(300), 2, 0).chat(Prompt.of("hello")))
                .isInstanceOf(RuntimeException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(2_500));
    }

    @ParameterizedTest
    @EnumSource(value = LlmProvider.class, names = {"OPENAI", "ANTHROPIC", "GEMINI"})
    void neverMoreThanMaxInFlightCallsAtOnce(LlmProvider provider) throws Exception {
        api = new LlmApiStandIn(150, HostedProvidersAgainstApiStandInTest::echo);
        LlmChat chat = chat(provider, Duration.ofSeconds(5), 3, 0);

        List<CompletableFuture<Reply>> calls = new ArrayList<>();
        IntStream.range(0, 9).forEach(i -> calls.add(CompletableFuture.supplyAsync(() -> chat.chat(Prompt.of("q" + i)))));
        calls.forEach(CompletableFuture::join);

        assertThat(api.calls.get()).isEqualTo(9);
        assertThat(api.maxInFlight.get()).isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(value = LlmProvider.class, names = {"OPENAI", "ANTHROPIC"})
    void aSharedSystemPrefixIsReportedCachedOnLaterCalls(LlmProvider provider) throws Exception {
        api = new LlmApiStandIn(0, HostedProvidersAgainstApiStandInTest::echo);
        LlmChat chat = chat(provider, Duration.ofSeconds(5), 1, 0);
        String document = "<document>\nThe greenhouse waters each bed for five minutes at dawn.\n</document>";

        Reply first = chat.chat(new Prompt(document, "situate chunk 1", false));
        Reply second = chat.chat(new Prompt(document, "situate chunk 2", false));

        assertThat(first.usage().cachedInputTokens()).isZero();
        assertThat(second.usage().cachedInputTokens()).isEqualTo(LlmApiStandIn.tokens(document));
        assertThat(second.usage().inputTokens()).as("all prompt tokens, cached ones included")
                .isEqualTo(LlmApiStandIn.tokens(document) + LlmApiStandIn.tokens("situate chunk 2"));
        if (provider == LlmProvider.ANTHROPIC) {
            assertThat(api.requests.get(1).body().path("system").toString()).contains("cache_control");
        }
    }

    @ParameterizedTest
    @EnumSource(value = LlmProvider.class, names = {"OPENAI", "ANTHROPIC", "GEMINI"})
    void aRejectedRequestIsNotRetried(LlmProvider provider) throws Exception {
        api = new LlmApiStandIn(0, HostedProvidersAgainstApiStandInTest::echo);
        LlmChat chat = LanguageModels.chat(new LlmSettings(provider, LlmApiStandIn.NO_SUCH_MODEL, api.url(), KEY,
                Duration.ofSeconds(5), 2, 3));

        assertThatThrownBy(() -> chat.chat(Prompt.of("hello"))).hasStackTraceContaining("HTTP 404");
        assertThat(api.arrivals).hasSize(1);
    }
}
