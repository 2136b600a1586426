package dev.openrag.ingest.source.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.openrag.knowledge.runtime.ApiException;

/**
 * Reads of a folder source that an attacker who can write in the folder tries to turn outside it: a file or a parent
 * folder swapped for a link between the scan and the read (the swap made at that moment, deterministically), the root
 * itself swapped, a file that grows past the limit while it is read, a huge sparse file; and the roots a source may
 * have (hidden folders, the data folder, the key file, roots narrowed later). Each attack has a legitimate file or
 * folder beside it that is read as usual. Plain file system, no engine.
 */
class SourceReadsTest {

    private static final long LIMIT = 1024 * 1024;

    @TempDir
    Path temp;

    Path allowed;
    Path outside;
    Path root;

    @BeforeEach
    void folders() throws IOException {
        JGitDefaults.use(); // the repositories made here, as the app reads them: not through the machine's git settings
        allowed = Files.createDirectories(temp.resolve("allowed")).toRealPath();
        outside = Files.createDirectories(temp.resolve("outside")).toRealPath();
        root = Files.createDirectories(allowed.resolve("docs"));
        write(outside, "secret.md", "OUTSIDE-SECRET the environment of the app");
        write(outside, "sub/page.md", "OUTSIDE-SECRET in a folder");
    }

    @Test
    void aFileSwappedForALinkBetweenTheScanAndTheReadIsRefusedAndItsNeighbourIsRead() throws IOException {
        write(root, "swapped.md", "the original text");
        write(root, "control.md", "the control text");
        Map<String, SourceFile> scanned = scan(root);
        assertThat(scanned).containsOnlyKeys("swapped.md", "control.md");

        Files.delete(root.resolve("swapped.md")); // between the scan and the read
        Files.createSymbolicLink(root.resolve("swapped.md"), outside.resolve("secret.md"));

        assertThatThrownBy(() -> read(scanned.get("swapped.md"))).isInstanceOf(IOException.class).hasMessageContaining("symbolic link");
        SourceReader.Content control = read(scanned.get("control.md"));
        assertThat(new String(control.bytes(), StandardCharsets.UTF_8)).isEqualTo("the control text");
        assertThat(control.hash()).isEqualTo(scanned.get("control.md").hash());
    }

    @Test
    void aParentFolderSwappedForALinkIsRefusedAtAnyDepthAndItsSiblingIsRead() throws IOException {
        write(root, "sub/page.md", "inside, one level down");
        write(root, "a/b/c/sub/page.md", "inside, four levels down");
        write(root, "kept/page.md", "the control, in a folder that stays");
        Map<String, SourceFile> scanned = scan(root);

        for (Path parent : List.of(root.resolve("sub"), root.resolve("a/b"))) {
            Path moved = parent.resolveSibling(parent.getFileName() + "-moved");
            Files.move(parent, moved);
            Files.createSymbolicLink(parent, parent.getFileName().toString().equals("sub") ? outside.resolve("sub") : outside);
        }
        Files.createDirectories(outside.resolve("c/sub"));
        Files.writeString(outside.resolve("c/sub/page.md"), "OUTSIDE-SECRET deep");

        for (String path : List.of("sub/page.md", "a/b/c/sub/page.md")) {
            assertThatThrownBy(() -> read(scanned.get(path))).as(path).isInstanceOf(IOException.class)
                    .hasMessageContaining("symbolic link");
        }
        assertThat(new String(read(scanned.get("kept/page.md")).bytes(), StandardCharsets.UTF_8))
                .isEqualTo("the control, in a folder that stays");
    }

    @Test
    void aRootReplacedAfterTheRunCheckedItIsNotRead() throws IOException {
        write(root, "page.md", "the root's own page");
        Map<String, SourceFile> scanned = scan(root);
        Files.move(root, allowed.resolve("docs-moved"));
        Files.createSymbolicLink(root, outside);
        write(outside, "page.md", "OUTSIDE-SECRET where the root pointed");

        assertThatThrownBy(() -> read(scanned.get("page.md"))).isInstanceOf(IOException.class)
                .satisfies(e -> assertThat(e.getMessage()).containsAnyOf("replaced", "symbolic link", "not a folder"));
        SourceRoots roots = roots(List.of(allowed));
        assertThatThrownBy(() -> roots.atRun(root)).isInstanceOf(SourceException.class).hasMessageContaining("symbolic link");
        assertThat(roots.atRun(allowed.resolve("docs-moved")).path()).as("the control: the real folder").isEqualTo(allowed.resolve("docs-moved"));
    }

    @Test
    void theBytesReadAreTheBytesHashedEvenWhenTheFileChangedSinceTheScan() throws IOException {
        write(root, "changing.md", "first version");
        Map<String, SourceFile> scanned = scan(root);
        write(root, "changing.md", "second version, written after the scan");

        SourceReader.Content read = read(scanned.get("changing.md"));
        assertThat(new String(read.bytes(), StandardCharsets.UTF_8)).isEqualTo("second version, written after the scan");
        assertThat(read.hash()).isEqualTo(SourceReader.sha256(read.bytes())).isNotEqualTo(scanned.get("changing.md").hash());
    }

    @Test
    void aFileThatGrowsPastTheLimitWhileItIsReadIsRefusedWithTheLimit() throws IOException {
        write(root, "growing.log", "x".repeat(1000));
        write(root, "steady.log", "y".repeat(1000));
        Map<String, SourceFile> scanned = scan(root);
        Files.writeString(root.resolve("growing.log"), "z".repeat((int) LIMIT + 10)); // past the limit by now

        assertThatThrownBy(() -> read(scanned.get("growing.log"))).isInstanceOf(SourceReader.TooLargeException.class)
                .hasMessageContaining(String.valueOf(LIMIT)).hasMessageContaining("test.limit");
        assertThat(read(scanned.get("steady.log")).bytes()).hasSize(1000);
    }

    @Test
    void aHugeSparseFileIsRefusedOnItsSizeWithoutBeingReadAndTheSmallOnesAreHashed() throws IOException {
        long threeGiB = 3L * 1024 * 1024 * 1024;
        try (RandomAccessFile sparse = new RandomAccessFile(root.resolve("huge.bin").toFile(), "rw")) {
            sparse.setLength(threeGiB); // no byte written: a sparse file
        }
        write(root, "small.md", "a small file beside it");
        write(root, "nested/small.txt", "another one");
        long started = System.nanoTime();
        Map<String, SourceFile> scanned = scan(root);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("3 GiB are never read").isLessThan(Duration.ofSeconds(5));

        SourceFile huge = scanned.get("huge.bin");
        assertThat(huge.readable()).isFalse();
        assertThat(huge.unreadable()).contains(threeGiB + " bytes").contains(String.valueOf(LIMIT)).contains("openrag.sources.max-file-bytes");
        assertThat(scanned.get("small.md").readable()).isTrue();
        assertThat(scanned.get("nested/small.txt").readable()).isTrue();
    }

    @Test
    void hiddenFoldersTheDataFolderAndTheKeyFileAreNeverSourcesAndNarrowedRootsStopOldOnes() throws IOException {
        Path data = Files.createDirectories(allowed.resolve("server-data"));
        Files.writeString(data.resolve("secrets.key"), "key");
        List<Path> configured = new ArrayList<>(List.of(allowed));
        SourceRoots roots = roots(configured, data.resolve("secrets.key"));

        for (String hidden : List.of(".ssh", ".git", "..double", "notes/.private/deeper", ".config/app", ".Trash-1000")) {
            Path folder = Files.createDirectories(allowed.resolve(hidden));
            Optional<SourceRoots.Refusal> refusal = roots.refusal(folder.toRealPath(), folder.toString());
            assertThat(refusal).as(hidden).hasValueSatisfying(r -> {
                assertThat(r.status()).isEqualTo(400);
                assertThat(r.reason()).contains("hidden");
            });
            assertThatThrownBy(() -> roots.allowedAtSave(folder.toString())).as(hidden).isInstanceOf(ApiException.class)
                    .hasMessageContaining("hidden");
            assertThatThrownBy(() -> roots.atRun(folder.toRealPath())).as(hidden).isInstanceOf(SourceException.class)
                    .hasMessageContaining("hidden");
        }
        for (String visible : List.of("ssh", "notes.d", "v1.2", "dossier", "emails/2024.archive")) {
            Path folder = Files.createDirectories(allowed.resolve(visible));
            assertThat(roots.allowedAtSave(folder.toString())).as("control " + visible).isEqualTo(folder.toRealPath());
        }
        assertThatThrownBy(() -> roots.allowedAtSave(data.toString())).isInstanceOf(ApiException.class).hasMessageContaining("data folder");
        Path inData = Files.createDirectories(data.resolve("inside"));
        assertThatThrownBy(() -> roots.allowedAtSave(inData.toString())).isInstanceOf(ApiException.class).hasMessageContaining("data folder");
        assertThatThrownBy(() -> roots.allowedAtSave(outside.toString())).isInstanceOf(ApiException.class)
                .hasMessageContaining("outside the folders");

        // a folder the operator chose as a root may itself lie under a hidden folder: only what is below the root counts
        Path cache = Files.createDirectories(temp.resolve(".cache/shared")).toRealPath();
        Files.createDirectories(cache.resolve("docs"));
        configured.add(cache);
        assertThat(roots.allowedAtSave(cache.resolve("docs").toString())).isEqualTo(cache.resolve("docs"));

        // roots narrowed after a source was saved: its next run stops with the reason, the other source still runs
        Path kept = Files.createDirectories(allowed.resolve("kept"));
        Path dropped = roots.allowedAtSave(cache.resolve("docs").toString());
        configured.remove(cache);
        assertThatThrownBy(() -> roots.atRun(dropped)).isInstanceOf(SourceException.class).hasMessageContaining("outside the folders")
                .hasMessageContaining("no longer runs");
        assertThat(roots.atRun(kept.toRealPath()).path()).isEqualTo(kept.toRealPath());
    }

    @Test
    void theScanSkipsTheServersOwnFilesInsideASourceAndReportsLinks() throws IOException {
        Path data = Files.createDirectories(root.resolve("server-data"));
        Files.writeString(data.resolve("secrets.key"), "key");
        write(root, "page.md", "a page");
        Files.createSymbolicLink(root.resolve("link.md"), outside.resolve("secret.md"));
        SourceRoots roots = roots(List.of(allowed), data.resolve("secrets.key"));

        Map<String, SourceFile> scanned = FolderScanner.scan(SourceReader.Root.of(root.toRealPath()), new PathFilter(List.of(), List.of()),
                roots.never(), 100, LIMIT).stream().collect(Collectors.toMap(SourceFile::path, Function.identity()));
        assertThat(scanned).containsOnlyKeys("page.md", "link.md");
        assertThat(scanned.get("link.md").unreadable()).contains("symbolic link");
    }

    @AfterEach
    void hooksOff() {
        SourceReader.beforeOpen = relative -> { };
        FolderScanner.beforeDescend = relative -> { };
        SourceReader.openTimeout = Duration.ofSeconds(10);
    }

    @Test
    void aFifoSwappedInBetweenTheCheckAndTheOpenNeitherHangsTheRunNorIsReadAndItsNeighbourIsRead() throws Exception {
        write(root, "blocking.md", "a regular file at the check");
        write(root, "written.md", "a regular file at the check too");
        write(root, "control.md", "the control text");
        Map<String, SourceFile> scanned = scan(root);
        SourceReader.openTimeout = Duration.ofSeconds(2);
        List<Thread> writers = new ArrayList<>();
        SourceReader.beforeOpen = relative -> { // the swap, at the worst moment: after the check, before the open
            if (!relative.equals("control.md")) {
                try {
                    Files.delete(root.resolve(relative));
                    assertThat(new ProcessBuilder("mkfifo", root.resolve(relative).toString()).start().waitFor()).isZero();
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            if (relative.equals("written.md")) { // a writer that opens the FIFO (so that the open returns) and never writes
                Thread writer = Thread.ofPlatform().daemon().start(() -> {
                    try (var out = Files.newOutputStream(root.resolve(relative))) {
                        Thread.sleep(60_000);
                    } catch (IOException | InterruptedException e) {
                        // the test is over
                    }
                });
                writers.add(writer);
            }
        };
        try {
            for (String path : List.of("blocking.md", "written.md")) {
                assertTimeoutPreemptively(Duration.ofSeconds(15), () -> assertThatThrownBy(() -> read(scanned.get(path))).as(path)
                        .isInstanceOf(IOException.class).hasMessageContaining("not a regular file"));
            }
            SourceReader.Content control = read(scanned.get("control.md"));
            assertThat(new String(control.bytes(), StandardCharsets.UTF_8)).isEqualTo("the control text");
        } finally {
            writers.forEach(Thread::interrupt);
            try (var unblock = Files.newOutputStream(root.resolve("blocking.md"))) { // lets the abandoned open end
                // opened for writing: the blocked reader's open returns, and its channel is closed
            } catch (IOException e) {
                // already gone
            }
        }
    }

    @Test
    void aFolderSwappedForALinkWhileTheScanWalksIsNeverListedAndItsSiblingIsScanned() throws IOException {
        write(root, "sub/page.md", "inside, in the folder about to be swapped");
        write(root, "kept/page.md", "the control, in a folder that stays");
        write(outside, "private/names-nobody-should-see.md", "OUTSIDE-SECRET");
        FolderScanner.beforeDescend = relative -> { // the swap, after the walk saw a folder and before it goes down into it
            if (relative.equals("sub")) {
                try {
                    Files.move(root.resolve("sub"), temp.resolve("moved-away"));
                    Files.createSymbolicLink(root.resolve("sub"), outside);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        Map<String, SourceFile> scanned = scan(root);

        assertThat(scanned.keySet()).as("no name from outside the source").noneMatch(path -> path.contains("secret")
                || path.contains("names-nobody-should-see") || path.startsWith("sub/sub/"));
        assertThat(scanned.get("kept/page.md").readable()).isTrue();
        assertThat(scanned).hasEntrySatisfying("sub/", file -> assertThat(file.unreadable()).contains("symbolic link"));
    }

    @Test
    void foldersNestedDeeperThanTheWalkGoesAreReportedNotWalked() throws IOException {
        Path deep = root;
        for (int i = 0; i < FolderScanner.MAX_DEPTH + 20; i++) {
            deep = deep.resolve("d");
        }
        Files.createDirectories(deep);
        Files.writeString(deep.resolve("bottom.md"), "at the bottom");
        write(root, "top.md", "the control, at the top");
        Map<String, SourceFile> scanned = scan(root);

        assertThat(scanned.get("top.md").readable()).isTrue();
        assertThat(scanned.values()).anySatisfy(file -> assertThat(file.unreadable()).contains("deeper than"));
        assertThat(scanned.keySet()).noneMatch(path -> path.endsWith("bottom.md"));
    }

    @Test
    void aPathOutsideTheRootsIsRefusedTheSameWayWhetherItExistsOrNot() throws IOException {
        SourceRoots roots = roots(List.of(allowed));
        Files.createSymbolicLink(allowed.resolve("link-out"), outside);
        Files.writeString(allowed.resolve("file.md"), "a file, not a folder");
        for (String probe : List.of(outside.resolve("secret.md").toString(), outside.resolve("sub").toString(),
                outside.resolve("no-such-thing").toString(), allowed + "/../outside/secret.md", allowed + "/../outside/nope",
                allowed + "/link-out/no-such-thing", allowed + "/link-out/secret.md", allowed + "/nope/../../outside/secret.md",
                "/proc/self/environ", "/proc/self/no-such-thing", "/dev/zero", "/")) {
            assertThatThrownBy(() -> roots.allowedAtSave(probe)).as(probe).isInstanceOf(ApiException.class)
                    .hasMessageContaining("outside the folders this server may sync")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("does not exist").doesNotContain("not a folder"));
        }
        // the controls, inside the roots: the reasons are told, and odd spellings of a real folder lead to it
        assertThatThrownBy(() -> roots.allowedAtSave(allowed.resolve("missing").toString())).isInstanceOf(ApiException.class)
                .hasMessageContaining("does not exist");
        assertThatThrownBy(() -> roots.allowedAtSave(allowed.resolve("file.md").toString())).isInstanceOf(ApiException.class)
                .hasMessageContaining("not a folder");
        for (String spelling : List.of(root + "/", allowed + "//docs/./", allowed + "/docs/../docs")) {
            assertThat(roots.allowedAtSave(spelling)).as(spelling).isEqualTo(root.toRealPath());
        }
        // and a folder named through a link to an allowed root (as /tmp is /private/tmp on macOS) is still inside
        Path linkToAllowed = Files.createSymbolicLink(temp.resolve("link-to-allowed"), allowed);
        assertThat(roots.allowedAtSave(linkToAllowed.resolve("docs").toString())).isEqualTo(root.toRealPath());
    }

    @Test
    void aLocalRepositoryThatReadsOutsideTheRootsThroughLinksCommondirOrLongAlternatesIsRefused() throws Exception {
        SourceRoots roots = roots(List.of(allowed));
        Path secret = outside.resolve("secret.git");
        Git.init().setBare(true).setDirectory(secret.toFile()).call().close();

        Path control = allowed.resolve("control");
        Git.init().setDirectory(control.toFile()).call().close();
        assertThat(roots.gitRefusal(control)).as("the control: a plain repository").isEmpty();

        // a link inside the git folder (JGit follows it): objects/pack, or a file (packed-refs)
        Path packLink = allowed.resolve("pack-link");
        Git.init().setDirectory(packLink.toFile()).call().close();
        Path pack = packLink.resolve(".git/objects/pack");
        Files.deleteIfExists(pack);
        Files.createSymbolicLink(pack, secret.resolve("objects/pack"));
        Path refsLink = allowed.resolve("refs-link.git");
        Git.init().setBare(true).setDirectory(refsLink.toFile()).call().close();
        Files.writeString(secret.resolve("packed-refs"), "# pack-refs with: peeled\n");
        Files.createSymbolicLink(refsLink.resolve("packed-refs"), secret.resolve("packed-refs"));

        // a worktree whose commondir names a repository outside: its objects and refs are read from there
        Path worktree = Files.createDirectories(allowed.resolve("worktree"));
        Path worktreeGit = Files.createDirectories(allowed.resolve("control/.git/worktrees/wt"));
        Files.writeString(worktree.resolve(".git"), "gitdir: " + worktreeGit + "\n");
        Files.writeString(worktreeGit.resolve("HEAD"), "ref: refs/heads/main\n");
        Files.writeString(worktreeGit.resolve("gitdir"), worktree.resolve(".git") + "\n");
        Files.writeString(worktreeGit.resolve("commondir"), secret + "\n");

        // alternates chained through more folders than are checked, the last one outside
        Path chained = allowed.resolve("chained.git");
        Git.init().setBare(true).setDirectory(chained.toFile()).call().close();
        Path from = chained.resolve("objects");
        for (int i = 0; i < 20; i++) {
            Path next = Files.createDirectories(allowed.resolve("objects-" + i));
            Files.createDirectories(from.resolve("info"));
            Files.writeString(from.resolve("info/alternates"), next + "\n");
            from = next;
        }
        Files.createDirectories(from.resolve("info"));
        Files.writeString(from.resolve("info/alternates"), secret.resolve("objects") + "\n");

        for (Path repository : List.of(packLink, refsLink, worktree, chained)) {
            assertThat(roots.gitRefusal(repository)).as(repository.toString()).isPresent();
        }
        // the control: a short chain of alternates inside the roots
        Path shortChain = allowed.resolve("short.git");
        Git.init().setBare(true).setDirectory(shortChain.toFile()).call().close();
        Files.createDirectories(shortChain.resolve("objects/info"));
        Files.writeString(shortChain.resolve("objects/info/alternates"), control.resolve(".git/objects") + "\n");
        assertThat(roots.gitRefusal(shortChain)).as("the control: alternates inside the roots").isEmpty();
    }

    private Map<String, SourceFile> scan(Path folder) throws IOException {
        return FolderScanner.scan(SourceReader.Root.of(folder.toRealPath()), new PathFilter(List.of(), List.of()), List.of(), 100, LIMIT)
                .stream().collect(Collectors.toMap(SourceFile::path, Function.identity()));
    }

    private static SourceReader.Content read(SourceFile file) throws IOException {
        assertThat(file.readable()).as(file.path() + " readable at the scan: " + file.unreadable()).isTrue();
        return file.content().read(LIMIT, "test.limit");
    }

    private static void write(Path folder, String path, String text) throws IOException {
        Path file = folder.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private SourceRoots roots(List<Path> allowedRoots) {
        return roots(allowedRoots, temp.resolve("data/secrets.key"));
    }

    /** Roots read from {@code allowedRoots} at each call, so a test can narrow them as an operator would. */
    private SourceRoots roots(List<Path> allowedRoots, Path keyFile) {
        SourceSettings settings = new SourceSettings() {
            @Override
            public Optional<List<String>> allowedRoots() {
                return Optional.of(allowedRoots.stream().map(Path::toString).toList());
            }

            @Override
            public String dir() {
                return temp.resolve("data/sources").toString();
            }

            @Override
            public int maxFiles() {
                return 100;
            }

            @Override
            public long maxFileBytes() {
                return LIMIT;
            }

            @Override
            public long maxCloneBytes() {
                return LIMIT;
            }

            @Override
            public int gitHistoryDepth() {
                return 500;
            }

            @Override
            public Duration lease() {
                return Duration.ofSeconds(30);
            }

            @Override
            public String leaseRenewal() {
                return "10s";
            }

            @Override
            public Duration watchDebounce() {
                return Duration.ofSeconds(1);
            }

            @Override
            public Duration gitTimeout() {
                return Duration.ofMinutes(1);
            }
        };
        return new SourceRoots(settings, keyFile.toString());
    }
}
