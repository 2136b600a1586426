package dev.openrag.memory;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Many memories of one scope at once (MCP {@code add_memories}, {@code POST /api/memories:batch}):
 * checked here once for both, each problem an {@link IllegalArgumentException} naming the item and field.
 */
public final class MemoryBatch {

    public static final int MAX_MEMORIES = 500;
    private static final int MAX_ID = 256;
    private static final int MAX_SPEAKER = 128;

    /**
     * One memory of a batch; {@code id} null: a new random one (a given id makes re-sending the batch
     * harmless). {@code context} situates the text (e.g. the turn before it in a conversation): it
     * is embedded with the text, as chunks are with their context, and kept beside the memory for
     * word search (BM25 over context and text together), but never shown.
     * {@code supersedes}: the id of a memory of the scope (stored before, or earlier in the batch)
     * that this one replaces. {@code metadata}: the caller's key → value ({@link MemoryFilter#metadata}).
     */
    public record Item(String id, String text, List<String> tags, String speaker, String occurredAt, Boolean pinned, String context,
                       String supersedes, Map<String, Object> metadata) {

        public Item(String id, String text, List<String> tags, String speaker, String occurredAt, Boolean pinned, String context,
                    String supersedes) {
            this(id, text, tags, speaker, occurredAt, pinned, context, supersedes, null);
        }
    }

    /** What to embed for each item: its context, if any, before its text. */
    public static List<String> embeddingTexts(List<Item> items) {
        return items.stream().map(item -> item.context() == null || item.context().isBlank()
                ? item.text().strip() : item.context().strip() + "\n" + item.text().strip()).toList();
    }

    /** Each item's context, in order (null where it has none). */
    public static List<String> contexts(List<Item> items) {
        return items.stream().map(Item::context).toList();
    }

    private MemoryBatch() {
    }

    public static List<Memory> memories(String scope, List<Item> items, int maxTextChars, long now) {
        if (items == null || items.isEmpty() || items.size() > MAX_MEMORIES) {
            throw new IllegalArgumentException("'memories' must hold 1 to " + MAX_MEMORIES + " memories, got "
                    + (items == null ? 0 : items.size()));
        }
        List<Memory> memories = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            Item item = items.get(i);
            String at = "memories[" + i + "]";
            if (item == null) {
                throw new IllegalArgumentException("'" + at + "' is null");
            }
            String id = item.id() == null ? UUID.randomUUID().toString() : item.id().strip();
            if (id.isEmpty() || id.length() > MAX_ID || !ids.add(id)) {
                throw new IllegalArgumentException("'" + at + ".id' must be 1 to " + MAX_ID + " characters and unique in the batch");
            }
            String text = item.text() == null ? "" : item.text().strip();
            if (text.isEmpty() || text.length() > maxTextChars) {
                throw new IllegalArgumentException("'" + at + ".text' is required and must have 1 to " + maxTextChars + " characters");
            }
            if (item.context() != null && item.context().length() > maxTextChars) {
                throw new IllegalArgumentException("'" + at + ".context' must have at most " + maxTextChars + " characters");
            }
            Long occurredAt = time(item.occurredAt(), at + ".occurredAt");
            String supersedes = item.supersedes() == null ? null : item.supersedes().strip();
            if (supersedes != null && (supersedes.isEmpty() || supersedes.equals(id))) {
                throw new IllegalArgumentException("'" + at + ".supersedes' must be the id of another memory of the scope");
            }
            Map<String, Object> metadata;
            try {
                metadata = MemoryFilter.metadata(item.metadata());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + at + ".metadata': " + e.getMessage());
            }
            memories.add(new Memory(id, scope, text, item.tags() == null ? List.of() : Tags.check(item.tags()),
                    Boolean.TRUE.equals(item.pinned()), now, now, null, null, null, List.of(),
                    supersedes == null ? List.of() : List.of(new Memory.Link(Memory.SUPERSEDES, supersedes)),
                    occurredAt == null ? now : occurredAt, speaker(item.speaker(), at + ".speaker")).withMetadata(metadata));
        }
        return memories;
    }

    /**
     * An ISO-8601 time: an instant ({@code 2023-05-08T13:56:00Z}), a local date-time (read as UTC) or
     * a date (its start, UTC), as epoch milliseconds; null when absent.
     */
    public static Long time(String value, String name) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String text = value.strip();
        try {
            return OffsetDateTime.parse(text).toInstant().toEpochMilli();
        } catch (DateTimeParseException notOffset) {
            try {
                return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC).toEpochMilli();
            } catch (DateTimeParseException notLocal) {
                try {
                    return LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
                } catch (DateTimeParseException notDate) {
                    throw new IllegalArgumentException("'" + name + "' must be an ISO-8601 date or time such as 2023-05-08 or "
                            + "2023-05-08T13:56:00Z, got '" + (text.length() > 64 ? text.substring(0, 64) + "…" : text) + "'");
                }
            }
        }
    }

    /** An optional speaker: 1-128 characters. */
    public static String speaker(String speaker, String name) {
        if (speaker == null) {
            return null;
        }
        if (speaker.isBlank() || speaker.length() > MAX_SPEAKER) {
            throw new IllegalArgumentException("'" + name + "' must have 1 to " + MAX_SPEAKER + " characters");
        }
        return speaker.strip();
    }
}
