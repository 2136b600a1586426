package dev.openrag.ingest.source.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.openrag.knowledge.runtime.ApiException;

/** The diff of a run and the path rules, without engines. */
class SyncPlanTest {

    private static SourceFile file(String path, String hash) {
        return new SourceFile(path, hash, 10, (limit, limitName) -> new SourceReader.Content(new byte[0], hash), null);
    }

    private static Map<String, SourceStore.SyncedFile> synced(String... pathsAndHashes) {
        java.util.Map<String, SourceStore.SyncedFile> files = new java.util.HashMap<>();
        for (int i = 0; i < pathsAndHashes.length; i += 2) {
            files.put(pathsAndHashes[i], new SourceStore.SyncedFile(pathsAndHashes[i], pathsAndHashes[i + 1], "doc-" + pathsAndHashes[i]));
        }
        return files;
    }

    @Test
    void editsDeletionsAdditionsAndRenamesAreToldApart() {
        SyncPlan plan = SyncPlan.of(synced("a.md", "h1", "b.md", "h2", "c.md", "h3", "d.md", "h4"),
                List.of(file("a.md", "h1-edited"), file("c-renamed.md", "h3"), file("d.md", "h4"), file("e.md", "h5")));
        assertThat(plan.added()).extracting(SourceFile::path).containsExactlyInAnyOrder("c-renamed.md", "e.md");
        assertThat(plan.changed()).extracting(SourceFile::path).containsExactly("a.md");
        assertThat(plan.deleted()).extracting(SourceStore.SyncedFile::path).containsExactly("b.md", "c.md");
        assertThat(plan.unchanged()).isEqualTo(1);
        assertThat(plan.gone()).as("the rename's old path is not content lost").isEqualTo(1);
        assertThat(plan.massDelete(4)).isFalse();
        assertThat(SyncPlan.of(synced("a.md", "h1"), List.of(file("a.md", "h1"))).changesNothing()).isTrue();
    }

    @Test
    void anEmptiedOrUnmountedSourceIsAMassDeleteButAnUnreadableFileKeepsItsDocument() {
        Map<String, SourceStore.SyncedFile> three = synced("a.md", "h1", "b.md", "h2", "c.md", "h3");
        assertThat(SyncPlan.of(three, List.of()).massDelete(3)).isTrue();
        assertThat(SyncPlan.of(three, List.of(file("a.md", "h1"))).massDelete(3)).as("2 of 3 gone").isTrue();
        assertThat(SyncPlan.of(three, List.of(file("a.md", "h1"), file("b.md", "h2"))).massDelete(3)).as("1 of 3 gone").isFalse();
        assertThat(SyncPlan.of(Map.of(), List.of()).massDelete(0)).isFalse();

        SyncPlan unreadable = SyncPlan.of(synced("a.md", "h1", "sub/b.md", "h2", "sub/c.md", "h3"),
                List.of(SourceFile.unreadable("a.md", "unreadable: permission denied"), SourceFile.unreadable("sub/", "unreadable: gone")));
        assertThat(unreadable.deleted()).as("nothing deleted for a file or folder that could not be read").isEmpty();
        assertThat(unreadable.refused()).extracting(SyncRun.Refused::path).containsExactly("a.md", "sub/");
    }

    @Test
    void globsMatchNamesAtAnyDepthOrWholePathsAndHiddenFilesNeverSync() {
        PathFilter all = new PathFilter(List.of(), List.of());
        assertThat(all.accepts("docs/a.md")).isTrue();
        assertThat(all.accepts(".git/config")).isFalse();
        assertThat(all.accepts("docs/.secret.md")).isFalse();
        PathFilter markdown = new PathFilter(List.of("*.md"), List.of("drafts/**"));
        assertThat(List.of("a.md", "docs/deep/b.md", "c.txt", "drafts/d.md").stream().filter(markdown::accepts)
                .collect(Collectors.toList())).containsExactly("a.md", "docs/deep/b.md");
        PathFilter java = new PathFilter(List.of("**/*.java"), List.of());
        assertThat(java.accepts("Top.java")).isTrue();
        assertThat(java.accepts("src/main/Deep.java")).isTrue();
        assertThatThrownBy(() -> new PathFilter(List.of("docs/[a-"), List.of())).isInstanceOf(ApiException.class)
                .hasMessageContaining("invalid glob 'docs/[a-'");
    }
}
