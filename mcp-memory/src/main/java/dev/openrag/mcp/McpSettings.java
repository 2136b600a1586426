package dev.openrag.mcp;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code openrag.mcp.*}: every key can also be set by env var (OPENRAG_MCP_FORGET_RETENTION, ...; API keys are openrag.auth.*, shared by every app). */
@ConfigMapping(prefix = "openrag.mcp")
public interface McpSettings {

    /** How long a forgotten memory can still be restored before the sweeper deletes it. */
    @WithDefault("P30D")
    Duration forgetRetention();

    /** How often expired and long-forgotten memories are deleted (read by the sweeper's schedule). */
    @WithDefault("60s")
    String sweepInterval();

    /** Longest memory, correction or message text accepted, in characters. */
    @WithDefault("16000")
    int maxTextChars();

    /** Added to the similarity of the given conversation's memories and messages in search_memory. */
    @WithDefault("0.1")
    double conversationBoost();

    /**
     * Memory's add-time suggestion check ({@code dev.openrag.memory.runtime.ContradictionCheck}, which reads this key
     * and the next itself, as query-api's adds do): {@code rules}, {@code llm} or {@code off}. Mapped here too so that
     * the MCP server's {@code openrag.mcp.*} settings stay one validated set.
     */
    @WithDefault("rules")
    String contradictions();

    /** How many of the scope's current memories nearest to a new one the {@code llm} check is shown. */
    @WithDefault("5")
    int contradictionCandidates();

    /**
     * How add_memory finds the entities a memory is linked through: {@code rules} (the default,
     * offline) or {@code llm} (the {@code memory} LLM role's names as well).
     */
    @WithDefault("rules")
    String entities();

    /** Largest document ingest_document accepts (text or fetched URL), in bytes. */
    @WithDefault("20971520")
    long maxDocumentBytes();

    /** How long ingest_document waits for a URL to answer. */
    @WithDefault("PT20S")
    Duration fetchTimeout();
}
