package dev.openrag.memory;

/** A message of a conversation, in order ({@code seq} from 0). */
public record Message(String id, String conversationId, int seq, String role, String content, long createdAt) {
}
