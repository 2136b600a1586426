package dev.openrag.ingest.sink;

import java.util.List;

import dev.openrag.knowledge.port.IndexedChunk;
import dev.openrag.schemas.ChunksEmbedded;

/** ChunksEmbedded → the stores' view of its chunks. */
final class IndexedChunks {

    private IndexedChunks() {
    }

    static List<IndexedChunk> of(ChunksEmbedded document) {
        return document.chunks().stream().map(chunk -> new IndexedChunk(document.collection(), document.documentId(),
                chunk.chunkId(), chunk.index(), document.title(), document.source().uri(), chunk.headingPath(),
                chunk.text(), chunk.context(), chunk.vector())).toList();
    }
}
