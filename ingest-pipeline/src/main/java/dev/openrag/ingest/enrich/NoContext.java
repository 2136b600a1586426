package dev.openrag.ingest.enrich;

import java.util.List;

import dev.openrag.knowledge.port.Contextualizer;
import dev.openrag.schemas.Chunk;

/** Contextualizer mode {@code none}: every context is empty, so chunks are embedded and indexed alone. */
public final class NoContext implements Contextualizer {

    @Override
    public String name() {
        return "none";
    }

    @Override
    public Contexts contextualize(String title, String sourceUri, String documentText, List<Chunk> chunks) {
        return Contexts.offline(chunks.stream().map(chunk -> "").toList());
    }
}
