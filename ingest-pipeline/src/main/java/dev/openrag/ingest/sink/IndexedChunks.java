package dev.openrag.ingest.sink;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.schemas.ChunksEmbedded;

/** ChunksEmbedded → the stores' view of its chunks. */
final class IndexedChunks {

    private IndexedChunks() {
    }

    static List<IndexedChunk> of(ChunksEmbedded document) {
        Map<String, Object> metadata = metadata(document);
        return document.chunks().stream().map(chunk -> new IndexedChunk(document.collection(), document.documentId(),
                chunk.chunkId(), chunk.index(), document.title(), document.source().uri(), chunk.headingPath(),
                chunk.text(), chunk.context(), chunk.vector(), metadata)).toList();
    }

    /** The document's metadata as the stores keep it: the event's, with the title parsing found when no source gave one. */
    static Map<String, Object> metadata(ChunksEmbedded document) {
        Map<String, Object> metadata = new HashMap<>(document.metadata() == null ? Map.of() : document.metadata());
        if (document.title() != null && !document.title().isBlank()) {
            metadata.putIfAbsent("title", document.title());
        }
        return metadata;
    }
}
