package dev.openrag.ingest.source.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.MergeCommand;
import org.eclipse.jgit.api.MergeResult;
import org.eclipse.jgit.lib.PersonIdent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each file of a git source carries its own last change (issue 70): a real repository made with JGit (commits by
 * several authors at several times, a file untouched since the first commit, one changed and changed back, a rename,
 * a side branch merged by someone else), cloned as a sync clones it, shallow, at a depth that reaches the whole
 * history and at one that does not. No engine.
 */
class GitHistoryTest {

    private static final Instant T1 = Instant.parse("2024-01-10T10:00:00Z");
    private static final Instant T2 = Instant.parse("2024-05-20T11:00:00Z");
    private static final Instant T3 = Instant.parse("2024-09-01T12:00:00Z");
    private static final Instant T4 = Instant.parse("2025-02-14T13:00:00Z");
    private static final Instant T5 = Instant.parse("2025-03-03T14:00:00Z");
    private static final Instant T6 = Instant.parse("2025-04-04T15:00:00Z");
    private static final Instant T7 = Instant.parse("2025-06-30T16:00:00Z");
    private static final Instant T8 = Instant.parse("2026-01-05T17:00:00Z");

    @TempDir
    Path temp;

    Path work;
    Git git;
    String c1;
    String c3;
    String c4;
    String c5;
    String c7;

    /**
     * c1 (Ada): old.md, a.md "a1", moved.md, b.md "b1"; c2 (Grace): a.md "a2"; c3 (Linus): moved.md renamed docs/moved.md;
     * on a side branch c4 (Margaret): b.md "b2"; on main c5 (Ada): c.md; c6 (Barbara) merges the side; c7 (Grace):
     * a.md back to "a1", its first content.
     */
    @BeforeEach
    void repository() throws Exception {
        JGitDefaults.use();
        work = Files.createDirectories(temp.resolve("work"));
        git = Git.init().setDirectory(work.toFile()).setInitialBranch("main").call();
        write("old.md", "untouched since the first commit");
        write("a.md", "a1");
        write("moved.md", "the text that moves");
        write("b.md", "b1");
        c1 = commit("first", "Ada Lovelace", T1);
        write("a.md", "a2");
        commit("second", "Grace Hopper", T2);
        git.rm().addFilepattern("moved.md").call();
        write("docs/moved.md", "the text that moves");
        c3 = commit("rename", "Linus Torvalds", T3);
        git.branchCreate().setName("side").call();
        git.checkout().setName("side").call();
        write("b.md", "b2");
        c4 = commit("on the side", "Margaret Hamilton", T4);
        git.checkout().setName("main").call();
        write("c.md", "c1");
        c5 = commit("on main", "Ada Lovelace", T5);
        MergeResult merged = git.merge().include(git.getRepository().resolve("side")).setCommit(false)
                .setFastForward(MergeCommand.FastForwardMode.NO_FF).call();
        assertThat(merged.getMergeStatus().isSuccessful()).as(merged.toString()).isTrue();
        commit("merge the side", "Barbara Liskov", T6);
        write("a.md", "a1");
        c7 = commit("a back to its first text", "Grace Hopper", T7);
    }

    @Test
    void withTheWholeHistoryEachFileHasTheCommitThatLastChangedItItsAuthorAndItsTime() {
        try (GitScanner.Head head = read(500)) {
            assertThat(head.commit()).isEqualTo(c7);
            Map<String, Map<String, Object>> changes = head.lastChanges(paths(head));
            assertThat(changes.get("old.md")).as("untouched since the first commit")
                    .isEqualTo(fields(c1, T1, "Ada Lovelace"));
            assertThat(changes.get("a.md")).as("changed back to its first text: the commit that did it")
                    .isEqualTo(fields(c7, T7, "Grace Hopper"));
            assertThat(changes.get("docs/moved.md")).as("renamed: a change at the new path")
                    .isEqualTo(fields(c3, T3, "Linus Torvalds"));
            assertThat(changes.get("b.md")).as("merged from a side branch: the side's commit and author, not the merge's")
                    .isEqualTo(fields(c4, T4, "Margaret Hamilton"));
            assertThat(changes.get("c.md")).isEqualTo(fields(c5, T5, "Ada Lovelace"));
            assertThat(changes).hasSize(5);
        }
    }

    @Test
    void aFileUnchangedOverTheFetchedHistoryGetsTheHeadAndNoTimeOrAuthor() {
        try (GitScanner.Head head = read(2)) { // c7 and c6: the merge is the shallow boundary
            Map<String, Map<String, Object>> changes = head.lastChanges(paths(head));
            assertThat(changes.get("a.md")).as("control: changed within the history").isEqualTo(fields(c7, T7, "Grace Hopper"));
            for (String beyond : List.of("old.md", "b.md", "c.md", "docs/moved.md")) {
                assertThat(changes.get(beyond)).as(beyond + ": last changed before the history fetched")
                        .isEqualTo(Map.of("commit", c7));
            }
        }
    }

    @Test
    void anIncrementalFetchKeepsTheDepthAndFindsTheNewChange() throws Exception {
        read(2).close();
        write("c.md", "c2");
        String c8 = commit("c again", "Edsger Dijkstra", T8);
        try (GitScanner.Head head = read(2)) {
            assertThat(head.commit()).isEqualTo(c8);
            Map<String, Map<String, Object>> changes = head.lastChanges(List.of("c.md", "old.md"));
            assertThat(changes.get("c.md")).isEqualTo(fields(c8, T8, "Edsger Dijkstra"));
            assertThat(changes.get("old.md")).as("still past the history fetched").isEqualTo(Map.of("commit", c8));
            assertThat(changes).as("only the paths asked").hasSize(2);
        }
        try (GitScanner.Head head = read(2)) {
            assertThat(head.lastChanges(List.of("no/such/file.md"))).as("a path the head does not hold").isEmpty();
        }
    }

    @Test
    void aDepthBelowOneIsRefusedWithTheSettingsName() {
        assertThatThrownBy(() -> new GitScanner.Bounds(1L << 30, 60, 0))
                .isInstanceOf(SourceException.class).hasMessageContaining("openrag.sources.git-history-depth");
    }

    private GitScanner.Head read(int depth) {
        return GitScanner.read(work.toString(), "main", temp.resolve("clone-" + depth + ".git"), new PathFilter(List.of(), List.of()),
                1000, 1L << 20, new GitScanner.Bounds(1L << 30, 60, depth));
    }

    private static List<String> paths(GitScanner.Head head) {
        return head.files().stream().map(SourceFile::path).toList();
    }

    private static Map<String, Object> fields(String commit, Instant when, String author) {
        return Map.of("commit", commit, "modified", when.toString(), "author", author);
    }

    private String commit(String message, String author, Instant when) throws Exception {
        git.add().addFilepattern(".").call();
        PersonIdent who = new PersonIdent(author, author.toLowerCase().replace(' ', '.') + "@example.org", when, ZoneOffset.UTC);
        return git.commit().setMessage(message).setAuthor(who).setCommitter(who).setSign(false).call().name();
    }

    private void write(String path, String text) throws IOException {
        Path file = work.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
