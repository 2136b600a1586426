package dev.openrag.knowledge.memory;

import java.util.List;

/**
 * A long-term memory of an agent, isolated in its {@code scope}. Times are epoch milliseconds;
 * {@code expiresAt} is set by a TTL, {@code forgottenAt} by a soft forget (restorable until the
 * retention period ends). {@code about} names the entities/documents it is linked to,
 * {@code links} its typed links to other memories.
 */
public record Memory(
        String id,
        String scope,
        String text,
        List<String> tags,
        boolean pinned,
        long createdAt,
        long updatedAt,
        Long expiresAt,
        Long forgottenAt,
        String conversationId,
        List<String> about,
        List<Link> links) {

    /** A typed link from this memory to another one. */
    public record Link(String type, String toId) {
    }

    public boolean forgotten() {
        return forgottenAt != null;
    }

    public boolean expiredAt(long now) {
        return expiresAt != null && expiresAt <= now;
    }
}
