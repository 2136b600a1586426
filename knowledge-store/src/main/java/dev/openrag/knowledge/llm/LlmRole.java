package dev.openrag.knowledge.llm;

/**
 * What a model is used for in ingest and search; each role has its own provider, model, timeout, concurrency and
 * retries ({@code LlmConfig}). Memory's role is the memory module's ({@code dev.openrag.memory.runtime.MemoryLlm}).
 */
public enum LlmRole {

    CONTEXTUALIZER("contextualizer"),
    GRAPH_EXTRACTOR("graph-extractor"),
    SUMMARIZER("summarizer"),
    ANSWER("answer");

    private final String id;

    LlmRole(String id) {
        this.id = id;
    }

    /** The role's name in settings: {@code openrag.llm.<id>.*}. */
    public String id() {
        return id;
    }
}
