package dev.openrag.ingest.stage;

import java.util.List;

import dev.openrag.schemas.StageCompleted;
import dev.openrag.schemas.Topics;

/** Stage names as they appear in status events, job progress and dead letters. */
public final class Stages {

    public static final String ACCEPTED = StageCompleted.ACCEPTED;
    public static final String PARSE = "parse";
    public static final String CHUNK = "chunk";
    public static final String CONTEXTUALIZE = "contextualize";
    public static final String EMBED = "embed";
    public static final String EXTRACT_GRAPH = "extract-graph";
    public static final String SINK_OPENSEARCH = "sink-opensearch";
    public static final String SINK_NEO4J = "sink-neo4j";
    public static final String SINK_GRAPH = "sink-graph";
    public static final String SINK_QDRANT = "sink-qdrant";
    /** The document's text, pages, headings and chunk spans (citations), from the chunked topic. */
    public static final String SINK_TEXT = "sink-text";

    /** A document is done when each of these completed (or any stage failed it); see {@link #finalStages}. */
    public static final List<String> FINAL = List.of(SINK_TEXT, SINK_OPENSEARCH, SINK_NEO4J, SINK_GRAPH);

    /** The final stages for a vector backend: Qdrant adds its own sink. */
    public static List<String> finalStages(String vectorBackend) {
        return "qdrant".equals(vectorBackend) ? List.of(SINK_TEXT, SINK_OPENSEARCH, SINK_NEO4J, SINK_GRAPH, SINK_QDRANT) : FINAL;
    }

    /**
     * The final stages an event on {@code topic} still flows through: everything up to the chunked
     * documents (whose text the text sink keeps); past them the text sink is behind, and the pipeline
     * forks (embedded → the chunk sinks, graph-extracted → the graph sink).
     */
    public static List<String> finalStagesFed(String topic, List<String> finalStages) {
        return switch (topic) {
            case Topics.CHUNKS_CONTEXTUALIZED -> finalStages.stream().filter(stage -> !SINK_TEXT.equals(stage)).toList();
            case Topics.CHUNKS_EMBEDDED -> finalStages.stream().filter(stage -> !SINK_GRAPH.equals(stage) && !SINK_TEXT.equals(stage)).toList();
            case Topics.GRAPH_EXTRACTED -> List.of(SINK_GRAPH);
            default -> finalStages;
        };
    }

    public static final String DELETE_OPENSEARCH = "delete-opensearch";
    public static final String DELETE_NEO4J = "delete-neo4j";
    public static final String DELETE_QDRANT = "delete-qdrant";

    /** A document deleted through a job is gone when each of these completed it. */
    public static List<String> deleteStages(String vectorBackend) {
        return "qdrant".equals(vectorBackend) ? List.of(DELETE_OPENSEARCH, DELETE_NEO4J, DELETE_QDRANT)
                : List.of(DELETE_OPENSEARCH, DELETE_NEO4J);
    }

    /** Every stage in flow order, for progress display. */
    public static final List<String> ALL = List.of(ACCEPTED, PARSE, CHUNK, CONTEXTUALIZE, EMBED, EXTRACT_GRAPH,
            SINK_TEXT, SINK_OPENSEARCH, SINK_NEO4J, SINK_GRAPH);

    private Stages() {
    }
}
