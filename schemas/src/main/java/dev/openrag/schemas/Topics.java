package dev.openrag.schemas;

import java.util.List;

/** Kafka topic names of ARCHITECTURE §3: the one place they are spelled. */
public final class Topics {

    public static final String DOCUMENTS_ARRIVED = "openrag.documents.arrived";
    public static final String DOCUMENTS_PARSED = "openrag.documents.parsed";
    public static final String CHUNKS_CHUNKED = "openrag.chunks.chunked";
    public static final String CHUNKS_CONTEXTUALIZED = "openrag.chunks.contextualized";
    public static final String CHUNKS_EMBEDDED = "openrag.chunks.embedded";
    public static final String GRAPH_EXTRACTED = "openrag.graph.extracted";
    public static final String DOCUMENTS_DELETED = "openrag.documents.deleted";
    public static final String INGEST_STATUS = "openrag.ingest.status";
    public static final String INGEST_DLQ = "openrag.ingest.dlq";

    /** Every topic, in flow order. */
    public static final List<String> ALL = List.of(
            DOCUMENTS_ARRIVED, DOCUMENTS_PARSED, CHUNKS_CHUNKED, CHUNKS_CONTEXTUALIZED,
            CHUNKS_EMBEDDED, GRAPH_EXTRACTED, DOCUMENTS_DELETED, INGEST_STATUS, INGEST_DLQ);

    private Topics() {
    }
}
