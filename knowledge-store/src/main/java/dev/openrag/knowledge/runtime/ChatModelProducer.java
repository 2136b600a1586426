package dev.openrag.knowledge.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.openrag.knowledge.llm.LlmRole;
import dev.openrag.knowledge.port.ChatModel;
import io.quarkus.arc.lookup.LookupUnlessProperty;

/**
 * The chat model answers are written with, when {@code openrag.chat.provider} names a provider
 * (ollama, openai, anthropic, gemini; {@code openrag.llm.answer.*} sets its model, URL and key);
 * by default ({@code none}) there is none and answers are extractive (inject
 * {@code Instance<ChatModel>} and check it).
 */
@ApplicationScoped
public class ChatModelProducer {

    @Produces
    @Singleton
    @LookupUnlessProperty(name = "openrag.chat.provider", stringValue = "none", lookupIfMissing = false)
    ChatModel answers(RoleModels models) {
        return models.forRole(LlmRole.ANSWER);
    }
}
