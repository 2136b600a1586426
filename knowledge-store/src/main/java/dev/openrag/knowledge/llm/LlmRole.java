package dev.openrag.knowledge.llm;

/** What a model is used for; each role has its own provider, model, timeout, concurrency and retries. */
public enum LlmRole {

    CONTEXTUALIZER("contextualizer"),
    GRAPH_EXTRACTOR("graph-extractor"),
    SUMMARIZER("summarizer"),
    ANSWER("answer"),
    /** Tells which earlier memories a new one replaces (mcp-memory, {@code openrag.mcp.contradictions=llm}). */
    MEMORY("memory");

    private final String id;

    LlmRole(String id) {
        this.id = id;
    }

    /** The role's name in settings: {@code openrag.llm.<id>.*}. */
    public String id() {
        return id;
    }
}
