package dev.openrag.mcp.memory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.openrag.knowledge.filter.DocumentFilter;
import dev.openrag.knowledge.runtime.ApiException;
import dev.openrag.knowledge.runtime.Paging;
import dev.openrag.mcp.EngineOutagesAsToolErrors;
import dev.openrag.mcp.McpSettings;
import dev.openrag.mcp.security.ScopeGuard;
import dev.openrag.memory.Memory;
import dev.openrag.memory.MemoryBatch;
import dev.openrag.memory.MemoryEmbeddings;
import dev.openrag.memory.MemoryHit;
import dev.openrag.memory.MemoryPeriod;
import dev.openrag.memory.MemoryQuery;
import dev.openrag.memory.MemoryStore;
import dev.openrag.memory.MemorySummaries;
import dev.openrag.memory.runtime.ContradictionCheck;
import dev.openrag.memory.runtime.MemorySearchSettings;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.ToolCallException;

/** The memory tools of ARCHITECTURE §4: add, search, get, list, update, link, pin, forget/restore, delete. */
@Singleton
@EngineOutagesAsToolErrors
public class MemoryTools {

    /** search_memory's answer; {@code period}: the time the query was read as being about, when it names one. */
    public record SearchResult(List<MemoryHit> results, @JsonInclude(JsonInclude.Include.NON_NULL) MemoryPeriod period) {

        public SearchResult(List<MemoryHit> results) {
            this(results, null);
        }
    }

    /** list_memories' answer: one page, newest first. */
    public record Page(List<Memory> memories, int page, int pageSize, boolean hasMore) {
    }

    /** The answer of tools that change a memory without returning it (delete). */
    public record Done(String id, String result) {
    }

    static final int PAGE_SIZE = 50;

    private final MemoryStore store;
    private final MemoryEmbeddings embeddings;
    private final ScopeGuard scopes;
    private final Memories memories;
    private final McpSettings settings;
    private final ContradictionCheck contradictions;
    private final EntityExtraction entities;
    private final Clock clock;
    private final MemorySearchSettings searchSettings;

    public MemoryTools(MemoryStore store, MemoryEmbeddings embeddings, ScopeGuard scopes, Memories memories, McpSettings settings,
                       ContradictionCheck contradictions, EntityExtraction entities, Clock clock, MemorySearchSettings searchSettings) {
        this.store = store;
        this.embeddings = embeddings;
        this.scopes = scopes;
        this.memories = memories;
        this.settings = settings;
        this.contradictions = contradictions;
        this.entities = entities;
        this.clock = clock;
        this.searchSettings = searchSettings;
    }

    static final String METADATA = "Caller metadata, key -> value (a string, a number, an ISO-8601 date or a list of strings), as "
            + "a document's: plain keys (a letter, then letters, digits, '_' or '-'), at most 32, at most openrag.metadata.max-bytes bytes in all as JSON (the refusal names the configured number); "
            + "'tags' (in any case) and the filter's words are reserved";

    static final String FILTER = "Only memories whose tags or metadata match, as a JSON object (the form of document search's "
            + "filter): {\"team\": \"payments\"}, {\"tags\": \"travel\"} (has the tag), {\"tags\": {\"in\": [...]}}, "
            + "{\"team\": {\"not\": ...}}, {\"owner\": {\"exists\": true}}, {\"year\": {\"gte\": 2025, \"lt\": 2027}} "
            + "(numbers or ISO-8601 dates), {\"path\": {\"prefix\": \"docs/\"}}, {\"and\": [...]}, {\"or\": [...]}; top-level keys "
            + "are and-ed";

    @Tool(name = "add_memory", description = "Remember something long-term in a scope (a user, agent or project). "
            + "Returns the new memory with its id and links. When no supersedes is given, the server may suggest which older "
            + "memories it replaces: links of type suggested_supersedes saying which fact and why. A suggestion hides nothing: "
            + "search ranks the newer memory above the older for questions about that fact; confirm it with link_memories type "
            + "supersedes, or dismiss it with unlink_memories.")
    public Memory addMemory(
            @ToolArg(description = "What to remember") String text,
            @ToolArg(description = "Isolation scope, e.g. 'user:alice'") String scope,
            @ToolArg(description = "Tags for filtering", required = false) List<String> tags,
            @ToolArg(description = "Entity names or document ids this memory is about (linked when they exist)",
                    required = false) List<String> about,
            @ToolArg(description = "Seconds until the memory expires", required = false) Long ttlSeconds,
            @ToolArg(description = "Pinned memories come back with related knowledge searches", required = false) Boolean pinned,
            @ToolArg(description = "Conversation this memory belongs to (boosted when searching that conversation)",
                    required = false) String conversationId,
            @ToolArg(description = "When it happened, ISO-8601 (2023-05-08 or 2023-05-08T13:56:00Z); default: now",
                    required = false) String occurredAt,
            @ToolArg(description = "Who said or wrote it", required = false) String speaker,
            @ToolArg(description = "Id of a memory of the scope this one replaces (a fact that changed): the old one "
                    + "stays for asOf searches but default searches return only the new one", required = false) String supersedes,
            @ToolArg(description = METADATA, required = false) Map<String, Object> metadata) {
        String value = ToolArguments.text(text, "text", settings.maxTextChars());
        Map<String, Object> meta = ToolArguments.metadata(metadata);
        String target = scopes.requireWritable(scope);
        Memory replaced = supersedes == null ? null : memories.require(supersedes);
        if (replaced != null && !replaced.scope().equals(target)) {
            throw new ToolCallException("no memory with id '" + replaced.id() + "' in scope '" + target + "' to supersede");
        }
        Long ttl = ToolArguments.ttlSeconds(ttlSeconds);
        Long happened = ToolArguments.time(occurredAt, "occurredAt");
        String who = ToolArguments.speaker(speaker);
        if (conversationId != null) {
            store.conversation(conversationId).filter(c -> c.scope().equals(target))
                    .orElseThrow(() -> new ToolCallException("no conversation with id '" + conversationId + "' in scope '" + target + "'"));
        }
        long now = clock.millis();
        Memory memory = new Memory(UUID.randomUUID().toString(), target, value,
                tags == null ? List.of() : ToolArguments.tags(tags), Boolean.TRUE.equals(pinned), now, now,
                ttl == null ? null : now + ttl * 1000, null, conversationId, about == null ? List.of() : about,
                replaced == null ? List.of() : List.of(new Memory.Link(Memory.SUPERSEDES, replaced.id())),
                happened == null ? now : happened, who).withMetadata(meta);
        MemoryEmbeddings.Vectors vectors = embeddings.memory(value);
        memory = contradictions.withSuggestions(memory, vectors.first(), vectors.second(), now);
        memory = memory.mentioning(entities.names(value));
        return store.add(memory, vectors.first(), vectors.second());
    }

    public record Added(int added, int existing, List<String> ids) {
    }

    @Tool(name = "add_memories", description = "Remember many things in a scope in one call (up to 500), e.g. a "
            + "conversation's turns. Each: {text, id?, tags?, speaker?, occurredAt?, pinned?, context?, supersedes?, metadata?}; context "
            + "(e.g. the turn before) is embedded with the text and searched with its words, never returned; supersedes names a memory of the scope it "
            + "replaces. An id already in the scope is left as it is, so a batch can be sent again.")
    public Added addMemories(
            @ToolArg(description = "Isolation scope") String scope,
            @ToolArg(description = "The memories: [{text, id?, tags?, speaker?, occurredAt?, pinned?, context?, supersedes?, "
                    + "metadata?}]; metadata as add_memory's")
            List<MemoryBatch.Item> memories) {
        String target = scopes.requireWritable(scope);
        try {
            List<Memory> batch = MemoryBatch.memories(target, memories, settings.maxTextChars(), clock.millis());
            MemoryEmbeddings.Batch vectors = embeddings.batch(memories);
            List<String> added = store.addAll(batch, MemoryBatch.contexts(memories), vectors.first(), vectors.second());
            return new Added(added.size(), batch.size() - added.size(), batch.stream().map(Memory::id).toList());
        } catch (IllegalArgumentException e) {
            throw new ToolCallException("argument " + e.getMessage());
        }
    }

    /** summarize_memories' answer: how many memories were summed up, and the summaries' ids (the scope's own last). */
    public record Summarized(String scope, int memories, List<String> summaries) {
    }

    /** The most memories summarize_memories reads from one scope. */
    static final int MAX_SUMMARIZED = 20_000;
    private static final int SUMMARY_PAGE = 1000;

    @Tool(name = "summarize_memories", description = "Write extractive summaries of a scope's memories (offline, no model): one "
            + "per day on which memories happened (a conversation's session) and one of the whole scope, each a memory tagged "
            + "'summary' and linked ('summarizes') to the memories it sums up, which search finds like any other. Run it again "
            + "after adding memories: the scope's summaries are rewritten.")
    public Summarized summarizeMemories(@ToolArg(description = "Scope to summarize") String scope) {
        String target = scopes.requireWritable(scope);
        long now = clock.millis();
        List<Memory> current = new ArrayList<>();
        for (int offset = 0; ; offset += SUMMARY_PAGE) {
            List<Memory> page = store.list(target, null, null, offset, SUMMARY_PAGE, now);
            current.addAll(page);
            if (current.size() > MAX_SUMMARIZED) {
                throw new ToolCallException("scope '" + target + "' holds more than " + MAX_SUMMARIZED
                        + " memories; summarize_memories reads at most that many");
            }
            if (page.size() < SUMMARY_PAGE) {
                break;
            }
        }
        List<MemorySummaries.Summary> summaries = MemorySummaries.of(target, current);
        List<Memory> old = current.stream().filter(memory -> memory.tags().contains(MemorySummaries.TAG)).toList();
        old.forEach(memory -> store.delete(memory.id())); // rewritten below; a failure in between leaves the scope unsummarised
        List<Memory> written = summaries.stream().map(summary -> summary.memory(target, now)).toList();
        if (!written.isEmpty()) {
            MemoryEmbeddings.Batch vectors = embeddings.batch(written.stream()
                    .map(memory -> new MemoryBatch.Item(memory.id(), memory.text(), null, null, null, null, null, null)).toList());
            store.addAll(written, vectors.first(), vectors.second());
        }
        return new Summarized(target, current.size() - old.size(), written.stream().map(Memory::id).toList());
    }

    @Tool(name = "search_memory", description = "Find the memories of a scope that best match a query: by meaning "
            + "(vectors) and by its words (BM25: names, places, exact phrases), fused; optionally only one speaker's or "
            + "those that happened in a time window. With a conversationId that conversation's memories and messages rank higher. "
            + "Returns what is true now (memories the caller superseded, corrected or forgot left out), or with asOf what was "
            + "true then; of two memories close in meaning that the query does not tell apart, the newer ranks first (decided from "
            + "the memories' vectors and times, never from suggested links). "
            + "A time the query names ('in May 2023', 'the week before 3 August, 2023', 'after the wedding') ranks what "
            + "happened then higher; 'period' says how it was read. 'filter' keeps only the memories whose tags and metadata match.")
    public SearchResult searchMemory(
            @ToolArg(description = "What to look for") String query,
            @ToolArg(description = "Scope to search") String scope,
            @ToolArg(description = "Number of results, 1-100 (default 10)", required = false) Integer k,
            @ToolArg(description = "Conversation to boost", required = false) String conversationId,
            @ToolArg(description = "Include soft-forgotten memories", required = false) Boolean includeForgotten,
            @ToolArg(description = "Only memories of this speaker", required = false) String speaker,
            @ToolArg(description = "Only what happened at or after this ISO-8601 time", required = false) String after,
            @ToolArg(description = "Only what happened before this ISO-8601 time", required = false) String before,
            @ToolArg(description = "hybrid (default: meaning and words fused), vector or bm25", required = false) String mode,
            @ToolArg(description = "What 'last week', 'yesterday' or '3 months ago' in the query count from, ISO-8601 "
                    + "(default: now)", required = false) String referenceTime,
            @ToolArg(description = "What was true at this ISO-8601 time: memories that had happened by then and were not yet "
                    + "superseded (default: what is true now)", required = false) String asOf,
            @ToolArg(description = "In hybrid mode, also rank memories that share a name (person, place, ...) with the query or "
                    + "with the best hits (default false)", required = false) Boolean entityLinks,
            @ToolArg(description = "Rank newer memories higher: a memory this many days older than referenceTime (or asOf, "
                    + "or now) gets half the lift of a new one; nothing is filtered out (default: recency off)",
                    required = false) Double recencyHalfLifeDays,
            @ToolArg(description = FILTER, required = false) Map<String, Object> filter,
            @ToolArg(description = "For benchmarks: when the query is about one of the scope's speakers, the share of their "
                    + "score the other speakers' memories keep, 0-1 (1: no focus; default: the server's "
                    + "openrag.memory.other-speaker-weight)", required = false) Double otherSpeakerWeight,
            @ToolArg(description = "For benchmarks: how much a memory's episode (the same day's hits) lends it, 0-10 (0: none; "
                    + "default: the server's openrag.memory.episode-weight)", required = false) Double episodeWeight) {
        String retrieval = mode == null || mode.isBlank() ? MemoryQuery.HYBRID : mode.strip();
        if (!MemoryQuery.MODES.contains(retrieval)) {
            throw new ToolCallException("argument 'mode' must be hybrid, vector or bm25, got '" + retrieval + "'");
        }
        String value = ToolArguments.text(query, "query", settings.maxTextChars());
        String target = scopes.require(scope);
        int limit = ToolArguments.k(k, 10);
        Long from = ToolArguments.time(after, "after");
        Long to = ToolArguments.time(before, "before");
        if (from != null && to != null && from >= to) {
            throw new ToolCallException("argument 'after' must be earlier than 'before'");
        }
        Long reference = ToolArguments.time(referenceTime, "referenceTime");
        Long validAt = ToolArguments.time(asOf, "asOf");
        DocumentFilter kept = ToolArguments.filter(filter);
        MemoryQuery.Recency recency = ToolArguments.recency(recencyHalfLifeDays,
                validAt != null ? validAt : reference != null ? reference : clock.millis());
        MemoryQuery.Ranking ranking = ranking(otherSpeakerWeight, episodeWeight);
        String only = ToolArguments.speaker(speaker);
        // the second list is fused only in a hybrid search without a conversation (Neo4jMemoryStore#search); the question is
        // embedded from here on, while the period is read (an event it names is dated by a search of its own) and the store
        // reads what needs no vector
        var vectors = embeddings.queryLater(value, MemoryQuery.HYBRID.equals(retrieval) && conversationId == null);
        // only a hybrid search fuses the period's list
        MemoryPeriod period = MemoryQuery.HYBRID.equals(retrieval)
                ? MemoryPeriod.read(value, target, reference == null ? clock.millis() : reference, validAt, clock.millis(),
                store, embeddings) : null;
        return new SearchResult(store.search(new MemoryQuery(target, value, null, limit, conversationId,
                settings.conversationBoost(), Boolean.TRUE.equals(includeForgotten), only, from, to,
                clock.millis(), retrieval, period == null ? null : period.window(), validAt, Boolean.TRUE.equals(entityLinks),
                null, recency, kept).withRanking(ranking), vectors), period);
    }

    /** A search's own ranking settings, where the caller names either (the other from the server's settings); else null. */
    private MemoryQuery.Ranking ranking(Double otherSpeakerWeight, Double episodeWeight) {
        if (otherSpeakerWeight == null && episodeWeight == null) {
            return null;
        }
        try {
            return new MemoryQuery.Ranking(otherSpeakerWeight != null ? otherSpeakerWeight : searchSettings.otherSpeakerWeight(),
                    episodeWeight != null ? episodeWeight : searchSettings.episodeWeight());
        } catch (IllegalArgumentException e) {
            throw new ToolCallException("argument " + (e.getMessage().contains("speaker") ? "'otherSpeakerWeight'" : "'episodeWeight'")
                    + ": " + e.getMessage());
        }
    }

    @Tool(name = "get_memory", description = "A memory by id, with its tags, links, what it is about, and its earlier texts "
            + "(versions: text, from, until) when update_memory changed it.")
    public Memory getMemory(@ToolArg(description = "Memory id") String id) {
        return memories.require(id);
    }

    @Tool(name = "list_memories", description = "The memories of a scope, newest first, 50 a page; 'filter' keeps only those "
            + "whose tags and metadata match.")
    public Page listMemories(
            @ToolArg(description = "Scope to list") String scope,
            @ToolArg(description = "Only pinned (true) or unpinned (false) memories", required = false) Boolean pinned,
            @ToolArg(description = "Only memories with this tag", required = false) String tag,
            @ToolArg(description = "Page number from 1 (default 1)", required = false) Integer page,
            @ToolArg(description = FILTER, required = false) Map<String, Object> filter) {
        String target = scopes.require(scope);
        DocumentFilter kept = ToolArguments.filter(filter);
        int number = page == null ? 1 : page;
        int offset;
        try {
            offset = Paging.offset(number, PAGE_SIZE, PAGE_SIZE);
        } catch (ApiException e) {
            throw new ToolCallException("argument " + e.getMessage());
        }
        List<Memory> rows = store.list(target, pinned, tag, kept, offset, PAGE_SIZE + 1, clock.millis());
        return new Page(rows.stream().limit(PAGE_SIZE).toList(), number, PAGE_SIZE, rows.size() > PAGE_SIZE);
    }

    @Tool(name = "update_memory", description = "Change a memory's text (re-embedded), tags and/or metadata. The earlier text is kept as a "
            + "version with when it held: get_memory lists them, and search_memory with asOf before the edit returns the text then.")
    public Memory updateMemory(
            @ToolArg(description = "Memory id") String id,
            @ToolArg(description = "New text", required = false) String text,
            @ToolArg(description = "New tags (replace the old ones)", required = false) List<String> tags,
            @ToolArg(description = "New metadata (replaces the old; {} removes it); " + METADATA, required = false)
            Map<String, Object> metadata) {
        Memory memory = memories.requireWritable(id);
        if (text == null && tags == null && metadata == null) {
            throw new ToolCallException("give 'text', 'tags' and/or 'metadata' to update");
        }
        Map<String, Object> meta = ToolArguments.metadata(metadata);
        String value = text == null ? null : ToolArguments.text(text, "text", settings.maxTextChars());
        MemoryEmbeddings.Vectors vectors = value == null ? new MemoryEmbeddings.Vectors(null, null) : embeddings.memory(value);
        return store.update(memory.id(), value, vectors.first(), vectors.second(), ToolArguments.tags(tags), meta, clock.millis());
    }

    @Tool(name = "link_memories", description = "Link two memories of the same scope with a typed link "
            + "(e.g. 'supersedes', 'related', 'causes'); 'supersedes' also ends the validity of the memory it points to, and "
            + "confirms a suggested_supersedes link between them.")
    public Memory linkMemories(
            @ToolArg(description = "Memory the link starts at") String fromId,
            @ToolArg(description = "Memory the link points to") String toId,
            @ToolArg(description = "Link type") String type) {
        String linkType = ToolArguments.linkType(type);
        Memory from = memories.requireWritable(fromId);
        Memory to = memories.requireWritable(toId);
        if (!from.scope().equals(to.scope())) {
            throw new ToolCallException("memories '" + from.id() + "' and '" + to.id() + "' are in different scopes; links never cross scopes");
        }
        if (from.id().equals(to.id())) {
            throw new ToolCallException("a memory cannot be linked to itself");
        }
        store.link(from.id(), to.id(), linkType);
        return store.get(from.id()).orElseThrow();
    }

    @Tool(name = "unlink_memories", description = "Remove a typed link between two memories, e.g. dismiss a suggested "
            + "supersession (type suggested_supersedes); suggestions never change a search's order. A supersedes link, "
            + "which the caller set, is not removed.")
    public Memory unlinkMemories(
            @ToolArg(description = "Memory the link starts at") String fromId,
            @ToolArg(description = "Memory the link points to") String toId,
            @ToolArg(description = "Link type") String type) {
        String linkType = ToolArguments.linkType(type);
        if (Memory.SUPERSEDES.equals(linkType)) {
            throw new ToolCallException("a supersedes link ended the older memory's validity and is not removed; add the fact "
                    + "again, or link the older memory to the newer one as 'supersedes'");
        }
        Memory from = memories.requireWritable(fromId);
        Memory to = memories.requireWritable(toId);
        if (!store.unlink(from.id(), to.id(), linkType)) {
            throw new ToolCallException("no link of type '" + linkType + "' from memory '" + from.id() + "' to memory '" + to.id() + "'");
        }
        return store.get(from.id()).orElseThrow();
    }

    @Tool(name = "pin_memory", description = "Pin a memory: it comes back with related knowledge searches and answers.")
    public Memory pinMemory(@ToolArg(description = "Memory id") String id) {
        return setPinned(id, true);
    }

    @Tool(name = "unpin_memory", description = "Unpin a memory.")
    public Memory unpinMemory(@ToolArg(description = "Memory id") String id) {
        return setPinned(id, false);
    }

    @Tool(name = "forget_memory", description = "Soft-forget a memory: hidden from search and lists, restorable with "
            + "restore_memory during the retention period (30 days by default).")
    public Memory forgetMemory(@ToolArg(description = "Memory id") String id) {
        Memory memory = memories.requireWritable(id);
        if (!memory.forgotten()) {
            store.setForgotten(memory.id(), clock.millis());
        }
        return store.get(memory.id()).orElseThrow();
    }

    @Tool(name = "restore_memory", description = "Bring back a forgotten memory.")
    public Memory restoreMemory(@ToolArg(description = "Memory id") String id) {
        Memory memory = memories.requireWritable(id);
        if (!memory.forgotten()) {
            throw new ToolCallException("memory '" + memory.id() + "' is not forgotten");
        }
        if (memory.forgottenAt() + settings.forgetRetention().toMillis() < clock.millis()) {
            throw new ToolCallException("memory '" + memory.id() + "' was forgotten longer ago than the retention period ("
                    + settings.forgetRetention() + ") and can no longer be restored");
        }
        store.setForgotten(memory.id(), null);
        return store.get(memory.id()).orElseThrow();
    }

    @Tool(name = "delete_memory", description = "Delete a memory for good, with its links.")
    public Done deleteMemory(@ToolArg(description = "Memory id") String id) {
        Memory memory = memories.requireWritable(id);
        store.delete(memory.id());
        return new Done(memory.id(), "deleted");
    }

    private Memory setPinned(String id, boolean pinned) {
        Memory memory = memories.requireWritable(id);
        store.setPinned(memory.id(), pinned, clock.millis());
        return store.get(memory.id()).orElseThrow();
    }
}
