package dev.openrag.mcp.memory;

import java.time.Clock;
import java.util.List;
import java.util.Set;

import jakarta.inject.Singleton;

import dev.openrag.knowledge.port.Embedder;
import dev.openrag.mcp.EngineOutagesAsToolErrors;
import dev.openrag.mcp.McpSettings;
import dev.openrag.mcp.security.ScopeGuard;
import dev.openrag.memory.Conversation;
import dev.openrag.memory.MemoryStore;
import dev.openrag.memory.Message;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.ToolCallException;

/** Conversations: ordered messages an agent can search later (search_memory with conversationId). */
@Singleton
@EngineOutagesAsToolErrors
public class ConversationTools {

    private static final Set<String> ROLES = Set.of("user", "assistant", "system", "tool");

    private final MemoryStore store;
    private final Embedder embedder;
    private final ScopeGuard scopes;
    private final McpSettings settings;
    private final Clock clock;

    public ConversationTools(MemoryStore store, Embedder embedder, ScopeGuard scopes, McpSettings settings, Clock clock) {
        this.store = store;
        this.embedder = embedder;
        this.scopes = scopes;
        this.settings = settings;
        this.clock = clock;
    }

    @Tool(name = "create_conversation", description = "Start a conversation in a scope; returns its id.")
    public Conversation createConversation(
            @ToolArg(description = "Scope") String scope,
            @ToolArg(description = "Title", required = false) String title) {
        return store.createConversation(scopes.requireWritable(scope), title, clock.millis());
    }

    @Tool(name = "add_message", description = "Append a message (role user, assistant, system or tool) to a conversation.")
    public Message addMessage(
            @ToolArg(description = "Conversation id") String conversationId,
            @ToolArg(description = "user, assistant, system or tool") String role,
            @ToolArg(description = "Message text") String content) {
        scopes.requireWrite();
        Conversation conversation = require(conversationId);
        if (role == null || !ROLES.contains(role)) {
            throw new ToolCallException("argument 'role' must be one of " + ROLES.stream().sorted().toList() + ", got '" + role + "'");
        }
        String text = ToolArguments.text(content, "content", settings.maxTextChars());
        return store.addMessage(conversation.id(), role, text, embedder.embed(List.of(text)).get(0), clock.millis());
    }

    @Tool(name = "get_conversation", description = "A conversation with its messages in order.")
    public Conversation getConversation(@ToolArg(description = "Conversation id") String id) {
        return require(id);
    }

    private Conversation require(String id) {
        String conversationId = ToolArguments.id(id, "conversationId");
        return store.conversation(conversationId).filter(c -> scopes.allows(c.scope()))
                .orElseThrow(() -> new ToolCallException("no conversation with id '" + conversationId + "'"));
    }
}
