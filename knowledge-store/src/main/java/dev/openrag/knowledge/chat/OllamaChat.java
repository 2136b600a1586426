package dev.openrag.knowledge.chat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.ollama.OllamaStreamingChatModel;
import dev.openrag.knowledge.port.ChatModel;

/** {@link ChatModel} on an Ollama server through LangChain4j, blocking or token-streamed. */
public final class OllamaChat implements ChatModel {

    private final String modelName;
    private final OllamaChatModel blocking;
    private final OllamaStreamingChatModel streaming;

    public OllamaChat(String baseUrl, String modelName, Duration timeout) {
        this.modelName = modelName;
        this.blocking = OllamaChatModel.builder().baseUrl(baseUrl).modelName(modelName).timeout(timeout).maxRetries(1).build();
        this.streaming = OllamaStreamingChatModel.builder().baseUrl(baseUrl).modelName(modelName).timeout(timeout).build();
    }

    @Override
    public String name() {
        return "ollama:" + modelName;
    }

    @Override
    public String complete(String prompt) {
        return blocking.chat(prompt);
    }

    @Override
    public String stream(String prompt, Consumer<String> onToken) {
        CompletableFuture<String> answer = new CompletableFuture<>();
        streaming.chat(prompt, new StreamingChatResponseHandler() {
            @Override
            public void onPartialResponse(String token) {
                onToken.accept(token);
            }

            @Override
            public void onCompleteResponse(ChatResponse response) {
                answer.complete(response.aiMessage().text());
            }

            @Override
            public void onError(Throwable error) {
                answer.completeExceptionally(error);
            }
        });
        try {
            return answer.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while streaming from " + name(), e);
        }
    }
}
