package dev.openrag.knowledge.port;

import java.util.function.Consumer;

/** A chat LLM (Ollama first); optional: everything has an offline fallback. */
public interface ChatModel {

    String name();

    String complete(String prompt);

    /** Streams tokens to {@code onToken} and returns the whole answer. */
    String stream(String prompt, Consumer<String> onToken);
}
