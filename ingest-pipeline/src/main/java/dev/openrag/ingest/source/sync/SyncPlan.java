package dev.openrag.ingest.source.sync;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a run does, from the files as last synced and the files the source holds now. A file is identified by its
 * path: a new path is added, a known path with another hash (or other metadata: its document
 * is then only updated, not embedded again) changed, a known path that is gone deleted. A rename is
 * the old path deleted and the new one added (one document, under the new path). A file that could not be read is
 * reported and left as it was, and so is everything under a folder that could not be listed.
 */
record SyncPlan(List<SourceFile> added, List<SourceFile> changed, List<SourceStore.SyncedFile> deleted, int unchanged,
                List<SyncRun.Refused> refused, int gone) {

    static SyncPlan of(Map<String, SourceStore.SyncedFile> synced, List<SourceFile> now) {
        List<SourceFile> added = new ArrayList<>();
        List<SourceFile> changed = new ArrayList<>();
        List<SyncRun.Refused> refused = new ArrayList<>();
        Set<String> present = new HashSet<>();
        List<String> unlisted = new ArrayList<>(); // folders that could not be listed, as "path/"
        int unchanged = 0;
        for (SourceFile file : now) {
            present.add(file.path());
            if (!file.readable()) {
                refused.add(new SyncRun.Refused(file.path(), file.unreadable()));
                if (file.path().endsWith("/")) {
                    unlisted.add(file.path());
                }
                continue;
            }
            SourceStore.SyncedFile before = synced.get(file.path());
            if (before == null) {
                added.add(file);
            } else if (before.hash().equals(file.hash()) && java.util.Objects.equals(before.metadataHash(), file.metadataHash())) {
                unchanged++;
            } else {
                changed.add(file);
            }
        }
        Set<String> addedHashes = new HashSet<>();
        added.forEach(file -> addedHashes.add(file.hash()));
        List<SourceStore.SyncedFile> deleted = new ArrayList<>();
        int gone = 0;
        for (SourceStore.SyncedFile before : synced.values()) {
            if (!present.contains(before.path()) && unlisted.stream().noneMatch(before.path()::startsWith)) {
                deleted.add(before);
                if (!addedHashes.contains(before.hash())) {
                    gone++; // not a rename: its content is nowhere in the source any more
                }
            }
        }
        deleted.sort(java.util.Comparator.comparing(SourceStore.SyncedFile::path));
        return new SyncPlan(added, changed, deleted, unchanged, refused, gone);
    }

    /** More than half of the source's documents would go for good (renames aside): an unmounted or emptied source. */
    boolean massDelete(int documents) {
        return documents > 0 && gone * 2 > documents;
    }

    boolean changesNothing() {
        return added.isEmpty() && changed.isEmpty() && deleted.isEmpty();
    }
}
