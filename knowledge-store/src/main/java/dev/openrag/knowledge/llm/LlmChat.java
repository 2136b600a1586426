package dev.openrag.knowledge.llm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.anthropic.AnthropicTokenUsage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.openai.OpenAiTokenUsage;
import dev.openrag.knowledge.port.ChatModel;
import dev.openrag.schemas.TokenUsage;

/**
 * {@link ChatModel} over any LangChain4j provider model: never more than {@code maxInFlight}
 * calls at once (a permit is held only while a request is on the wire, not while waiting to
 * retry), retries by {@link RetryPolicy}, and the tokens each call cost, as the provider reported
 * them. A stream is retried only until its first token has been passed on.
 */
public final class LlmChat implements ChatModel {

    private static final Logger LOG = LoggerFactory.getLogger(LlmChat.class);

    private final String name;
    private final dev.langchain4j.model.chat.ChatModel blocking;
    private final StreamingChatModel streaming;
    private final boolean jsonMode;
    private final Double temperature;
    private final Semaphore inFlight;
    private final RetryPolicy retries;

    LlmChat(String name, dev.langchain4j.model.chat.ChatModel blocking, StreamingChatModel streaming, boolean jsonMode,
            Double temperature, int maxInFlight, RetryPolicy retries) {
        this.name = name;
        this.blocking = blocking;
        this.streaming = streaming;
        this.jsonMode = jsonMode;
        this.temperature = temperature;
        this.inFlight = new Semaphore(maxInFlight, true);
        this.retries = retries;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Reply chat(Prompt prompt) {
        ChatRequest request = request(prompt);
        return withRetries(() -> reply(blocking.chat(request)), () -> true);
    }

    @Override
    public Reply stream(Prompt prompt, Consumer<String> onToken) {
        ChatRequest request = request(prompt);
        AtomicBoolean passedOn = new AtomicBoolean();
        return withRetries(() -> {
            CompletableFuture<ChatResponse> done = new CompletableFuture<>();
            streaming.chat(request, new StreamingChatResponseHandler() {
                @Override
                public void onPartialResponse(String token) {
                    passedOn.set(true);
                    onToken.accept(token);
                }

                @Override
                public void onCompleteResponse(ChatResponse response) {
                    done.complete(response);
                }

                @Override
                public void onError(Throwable error) {
                    done.completeExceptionally(error);
                }
            });
            return reply(await(done));
        }, () -> !passedOn.get());
    }

    private Reply withRetries(Supplier<Reply> call, BooleanSupplier mayRetry) {
        for (int retry = 1; ; retry++) {
            RuntimeException failure;
            acquire();
            try {
                return call.get();
            } catch (RuntimeException e) {
                failure = e;
            } finally {
                inFlight.release();
            }
            Duration wait = mayRetry.getAsBoolean() ? retries.delayBefore(retry, failure) : null;
            if (wait == null) {
                throw failure;
            }
            LOG.info("{} call failed ({}); retry {} of {} in {} ms", name, failure.getMessage(), retry, retries.maxRetries(),
                    wait.toMillis());
            sleep(wait);
        }
    }

    private ChatRequest request(Prompt prompt) {
        List<ChatMessage> messages = new ArrayList<>(2);
        if (prompt.system() != null && !prompt.system().isBlank()) {
            messages.add(SystemMessage.from(prompt.system()));
        }
        messages.add(UserMessage.from(prompt.user()));
        ChatRequest.Builder request = ChatRequest.builder().messages(messages);
        if (temperature != null) {
            request.temperature(temperature);
        }
        if (prompt.json() && jsonMode) {
            request.responseFormat(ResponseFormat.JSON);
        }
        return request.build();
    }

    private static Reply reply(ChatResponse response) {
        String text = response.aiMessage() == null ? null : response.aiMessage().text();
        return new Reply(text == null ? "" : text, usage(response.tokenUsage()));
    }

    /**
     * One call's tokens. {@code inputTokens} counts every prompt token: OpenAI's already includes
     * the cached ones, Anthropic's does not, so cache reads and writes are added to it.
     */
    static TokenUsage usage(dev.langchain4j.model.output.TokenUsage usage) {
        if (usage == null) {
            return new TokenUsage(1, 0, 0, 0);
        }
        long input = count(usage.inputTokenCount());
        long cached = 0;
        if (usage instanceof OpenAiTokenUsage openAi && openAi.inputTokensDetails() != null) {
            cached = count(openAi.inputTokensDetails().cachedTokens());
        } else if (usage instanceof AnthropicTokenUsage anthropic) {
            cached = count(anthropic.cacheReadInputTokens());
            input += cached + count(anthropic.cacheCreationInputTokens());
        }
        return new TokenUsage(1, input, count(usage.outputTokenCount()), cached);
    }

    private static long count(Integer tokens) {
        return tokens == null ? 0 : tokens;
    }

    private void acquire() {
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to call " + name, e);
        }
    }

    private static void sleep(Duration wait) {
        try {
            Thread.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to retry", e);
        }
    }

    private ChatResponse await(CompletableFuture<ChatResponse> done) {
        try {
            return done.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while streaming from " + name, e);
        }
    }
}
