package dev.openrag.memory;

import java.util.List;

/** Pinned memories and corrections related to a search, to show next to it and put into answers. */
public record RelatedKnowledge(List<MemoryHit> memories, List<Correction> corrections) {

    public static final RelatedKnowledge NONE = new RelatedKnowledge(List.of(), List.of());
}
