package dev.openrag.query.search;

import java.util.List;

import dev.openrag.knowledge.port.Correction;
import dev.openrag.memory.MemoryHit;

/** Pinned memories (memory's) and corrections (knowledge-store's) related to a search, to show next to it and put into answers. */
public record RelatedKnowledge(List<MemoryHit> memories, List<Correction> corrections) {

    public static final RelatedKnowledge NONE = new RelatedKnowledge(List.of(), List.of());
}
