package dev.openrag.knowledge.port;

/**
 * A correction an agent or a person made: it {@code CORRECTS} a chunk or a memory, or stands for
 * a query; later related searches and answers carry it.
 */
public record Correction(String id, String scope, String text, String query, String chunkId, String memoryId,
                         long createdAt, Double score) {

    public Correction withScore(double value) {
        return new Correction(id, scope, text, query, chunkId, memoryId, createdAt, value);
    }
}
