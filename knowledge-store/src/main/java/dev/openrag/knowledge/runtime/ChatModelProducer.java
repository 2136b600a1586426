package dev.openrag.knowledge.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.openrag.knowledge.chat.OllamaChat;
import dev.openrag.knowledge.port.ChatModel;
import io.quarkus.arc.lookup.LookupIfProperty;

/**
 * The chat model answers are written with, when {@code openrag.chat.provider=ollama}; by default
 * there is none and answers are extractive (inject {@code Instance<ChatModel>} and check it).
 */
@ApplicationScoped
public class ChatModelProducer {

    @Produces
    @Singleton
    @LookupIfProperty(name = "openrag.chat.provider", stringValue = "ollama")
    ChatModel ollama(OllamaConfig ollama) {
        return new OllamaChat(ollama.url(), ollama.model(), ollama.timeout());
    }
}
