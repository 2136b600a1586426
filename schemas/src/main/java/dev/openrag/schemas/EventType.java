package dev.openrag.schemas;

import java.util.Arrays;

/** Each event record, its JSON Schema file under {@code /schemas/} and the topic it travels on. */
public enum EventType {
    DOCUMENT_ARRIVED(DocumentArrived.class, "document-arrived", Topics.DOCUMENTS_ARRIVED),
    DOCUMENT_PARSED(DocumentParsed.class, "document-parsed", Topics.DOCUMENTS_PARSED),
    DOCUMENT_CHUNKED(DocumentChunked.class, "document-chunked", Topics.CHUNKS_CHUNKED),
    CHUNKS_CONTEXTUALIZED(ChunksContextualized.class, "chunks-contextualized", Topics.CHUNKS_CONTEXTUALIZED),
    CHUNKS_EMBEDDED(ChunksEmbedded.class, "chunks-embedded", Topics.CHUNKS_EMBEDDED),
    GRAPH_EXTRACTED(GraphExtracted.class, "graph-extracted", Topics.GRAPH_EXTRACTED),
    DOCUMENT_DELETED(DocumentDeleted.class, "document-deleted", Topics.DOCUMENTS_DELETED),
    STAGE_COMPLETED(StageCompleted.class, "stage-completed", Topics.INGEST_STATUS),
    STAGE_FAILED(StageFailed.class, "stage-failed", Topics.INGEST_STATUS),
    DEAD_LETTER(DeadLetter.class, "dead-letter", Topics.INGEST_DLQ);

    private final Class<? extends EventEnvelope> recordType;
    private final String schemaName;
    private final String topic;

    EventType(Class<? extends EventEnvelope> recordType, String schemaName, String topic) {
        this.recordType = recordType;
        this.schemaName = schemaName;
        this.topic = topic;
    }

    public Class<? extends EventEnvelope> recordType() {
        return recordType;
    }

    /** Classpath resource of the JSON Schema, e.g. {@code /schemas/document-arrived.schema.json}. */
    public String schemaResource() {
        return "/schemas/" + schemaName + ".schema.json";
    }

    public String topic() {
        return topic;
    }

    public static EventType of(Class<?> recordType) {
        return Arrays.stream(values())
                .filter(type -> type.recordType.equals(recordType))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("not an OpenRAG event: " + recordType.getName()));
    }
}
