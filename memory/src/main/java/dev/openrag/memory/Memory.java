package dev.openrag.memory;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A long-term memory of an agent, isolated in its {@code scope}. Times are epoch milliseconds;
 * {@code expiresAt} is set by a TTL, {@code forgottenAt} by a soft forget (restorable until the
 * retention period ends). {@code about} names the entities/documents it is linked to,
 * {@code links} its typed links to other memories. {@code occurredAt} is when what it says
 * happened (null: when it was stored), {@code speaker} who said or wrote it (null: unknown).
 * {@code validTo} is when it stopped being true (null: still true): set when a later memory
 * supersedes it (a {@value #SUPERSEDES} link from the newer one) or a correction corrects it; such a
 * memory stays stored, for {@code asOf} searches and audit, but default searches leave it out.
 * {@code entities}: the names found in its text ({@link MemoryEntities}), through which it is
 * linked to other memories of its scope that mention them. {@code versions}: the texts it had before
 * {@code update_memory} gave it another, oldest first, each with when it held. {@code metadata}: the
 * caller's key → value ({@link MemoryFilter#metadata}), which search and listing filter on.
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
        List<Link> links,
        Long occurredAt,
        String speaker,
        Long validTo,
        List<String> entities,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Version> versions,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Object> metadata) {

    /** An earlier text of a memory: what it said from {@code from} until {@code until} (epoch ms), when an update replaced it. */
    public record Version(String text, long from, long until) {
    }

    public Memory {
        versions = versions == null ? List.of() : List.copyOf(versions);
        metadata = metadata == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(metadata));
    }

    /** A memory without caller metadata. */
    public Memory(String id, String scope, String text, List<String> tags, boolean pinned, long createdAt, long updatedAt,
                  Long expiresAt, Long forgottenAt, String conversationId, List<String> about, List<Link> links,
                  Long occurredAt, String speaker, Long validTo, List<String> entities, List<Version> versions) {
        this(id, scope, text, tags, pinned, createdAt, updatedAt, expiresAt, forgottenAt, conversationId, about, links,
                occurredAt, speaker, validTo, entities, versions, Map.of());
    }

    /** This memory with this caller metadata (normalised, {@link MemoryFilter#metadata}). */
    public Memory withMetadata(Map<String, Object> metadata) {
        return new Memory(id, scope, text, tags, pinned, createdAt, updatedAt, expiresAt, forgottenAt, conversationId, about,
                links, occurredAt, speaker, validTo, entities, versions, metadata);
    }

    /** A memory never edited. */
    public Memory(String id, String scope, String text, List<String> tags, boolean pinned, long createdAt, long updatedAt,
                  Long expiresAt, Long forgottenAt, String conversationId, List<String> about, List<Link> links,
                  Long occurredAt, String speaker, Long validTo, List<String> entities) {
        this(id, scope, text, tags, pinned, createdAt, updatedAt, expiresAt, forgottenAt, conversationId, about, links,
                occurredAt, speaker, validTo, entities, List.of());
    }

    /**
     * The text this memory had at {@code at}: the first earlier version that held until after then, else its text now
     * (a time before its first text counts as its first text: a memory may say what happened before it was stored).
     */
    public String textAt(long at) {
        return versions.stream().filter(version -> version.until() > at).map(Version::text).findFirst().orElse(text);
    }

    /** This memory as it read at {@code at} ({@link #textAt}). */
    public Memory asItReadAt(long at) {
        String then = textAt(at);
        return then.equals(text) ? this : new Memory(id, scope, then, tags, pinned, createdAt, updatedAt, expiresAt, forgottenAt,
                conversationId, about, links, occurredAt, speaker, validTo, entities, versions, metadata);
    }

    /** The link type from a newer memory to the one it replaces: set only by the caller; it ends the older one's validity. */
    public static final String SUPERSEDES = "supersedes";

    /**
     * The link type from a newer memory to an older one that rules or the LLM role read as giving an
     * earlier value of the same fact ({@link FactChanges}). Only a suggestion for the agent to read: it
     * hides nothing, ends nothing's validity and does not rank (search decides which memory answers a
     * question by meaning and time, {@link NewerWins}). An agent confirms it with a {@value #SUPERSEDES}
     * link or dismisses it by unlinking it.
     */
    public static final String SUGGESTED_SUPERSEDES = "suggested_supersedes";

    /** A memory without a time of its own or a speaker. */
    public Memory(String id, String scope, String text, List<String> tags, boolean pinned, long createdAt, long updatedAt,
                  Long expiresAt, Long forgottenAt, String conversationId, List<String> about, List<Link> links) {
        this(id, scope, text, tags, pinned, createdAt, updatedAt, expiresAt, forgottenAt, conversationId, about, links, null, null);
    }

    /** A memory that is still true. */
    public Memory(String id, String scope, String text, List<String> tags, boolean pinned, long createdAt, long updatedAt,
                  Long expiresAt, Long forgottenAt, String conversationId, List<String> about, List<Link> links,
                  Long occurredAt, String speaker) {
        this(id, scope, text, tags, pinned, createdAt, updatedAt, expiresAt, forgottenAt, conversationId, about, links,
                occurredAt, speaker, null, List.of());
    }

    /** The id of the memory this one supersedes, or null. */
    public String supersedes() {
        return links.stream().filter(link -> SUPERSEDES.equals(link.type())).map(Link::toId).findFirst().orElse(null);
    }

    /** This memory, also superseding the memories with these ids. */
    public Memory superseding(List<String> oldIds) {
        List<Link> more = new java.util.ArrayList<>(links);
        oldIds.forEach(old -> more.add(new Link(SUPERSEDES, old)));
        return new Memory(id, scope, text, tags, pinned, createdAt, updatedAt, expiresAt, forgottenAt, conversationId, about,
                List.copyOf(more), occurredAt, speaker, validTo, entities, versions, metadata);
    }

    /** This memory, also naming these entities (a model's, say; the store adds the rules' own). */
    public Memory mentioning(List<String> names) {
        List<String> more = new java.util.ArrayList<>(entities == null ? List.of() : entities);
        more.addAll(names);
        return new Memory(id, scope, text, tags, pinned, createdAt, updatedAt, expiresAt, forgottenAt, conversationId, about,
                links, occurredAt, speaker, validTo, List.copyOf(more), versions, metadata);
    }

    /** This memory with these links as well (suggested supersessions, say). */
    public Memory linking(List<Link> more) {
        List<Link> all = new java.util.ArrayList<>(links);
        all.addAll(more);
        return new Memory(id, scope, text, tags, pinned, createdAt, updatedAt, expiresAt, forgottenAt, conversationId, about,
                List.copyOf(all), occurredAt, speaker, validTo, entities, versions, metadata);
    }

    /**
     * A typed link from this memory to another one. A suggested supersession also says which
     * {@code fact} changed and {@code reason}, why it was read so; its {@code words} (stems of the
     * fact: what a question about it shares) stay on the stored link, for search, and are not shown.
     */
    public record Link(String type, String toId,
                       @JsonInclude(JsonInclude.Include.NON_NULL) String fact,
                       @JsonInclude(JsonInclude.Include.NON_NULL) String reason,
                       @JsonIgnore List<String> words) {

        public Link(String type, String toId) {
            this(type, toId, null, null, List.of());
        }

        public Link {
            words = words == null ? List.of() : List.copyOf(words);
        }
    }

    public boolean forgotten() {
        return forgottenAt != null;
    }

    public boolean expiredAt(long now) {
        return expiresAt != null && expiresAt <= now;
    }
}
