package dev.openrag.memory;

import java.util.List;

/** A conversation of an agent in a scope, with its messages in order. */
public record Conversation(String id, String scope, String title, long createdAt, List<Message> messages) {
}
