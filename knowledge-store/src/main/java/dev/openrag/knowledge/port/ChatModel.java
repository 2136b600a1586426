package dev.openrag.knowledge.port;

import java.util.function.Consumer;

import dev.openrag.schemas.TokenUsage;

/**
 * A chat LLM for one role (contextualizer, graph extractor, summarizer, answer), local or hosted;
 * optional: everything that uses one has an offline fallback.
 */
public interface ChatModel {

    /** "provider:model", e.g. "ollama:llama3.2", "openai:gpt-4o-mini". */
    String name();

    /** One whole answer, with the tokens it cost. */
    Reply chat(Prompt prompt);

    /** Streams the answer's tokens to {@code onToken} and returns the whole answer. */
    Reply stream(Prompt prompt, Consumer<String> onToken);

    default String complete(String text) {
        return chat(Prompt.of(text)).text();
    }

    /**
     * What the model is asked. {@code system} (may be null) is the part shared by many calls, e.g.
     * the whole document for every chunk's context: providers with prompt caching cache it.
     * {@code json} asks for a JSON object (the provider's JSON mode where it has one).
     */
    record Prompt(String system, String user, boolean json) {

        public static Prompt of(String user) {
            return new Prompt(null, user, false);
        }
    }

    record Reply(String text, TokenUsage usage) {
    }
}
