package dev.openrag.schemas;

import java.util.List;

/** Entities, their relations and which chunks mention them ({@link Topics#GRAPH_EXTRACTED}). */
public record GraphExtracted(
        int schemaVersion,
        String eventId,
        String documentId,
        String jobId,
        String collection,
        List<Entity> entities,
        List<Relation> relations,
        List<Mention> mentions,
        ApiGraph api,
        Long arrivedAt) implements EventEnvelope, VersionedEvent {

    /** An event without {@link #arrivedAt}, as written before versions were carried. */
    public GraphExtracted(int schemaVersion, String eventId, String documentId, String jobId, String collection,
                          List<Entity> entities, List<Relation> relations, List<Mention> mentions, ApiGraph api) {
        this(schemaVersion, eventId, documentId, jobId, collection, entities, relations, mentions, api, null);
    }

    /** {@code id} is stable per collection (normalised name + type), so entities merge across documents. */
    public record Entity(String id, String name, String type) {
    }

    public record Relation(String fromId, String toId, String type) {
    }

    public record Mention(String chunkId, String entityId) {
    }
}
