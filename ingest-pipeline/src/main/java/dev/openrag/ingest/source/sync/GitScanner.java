package dev.openrag.ingest.source.sync;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.api.errors.InvalidRemoteException;
import org.eclipse.jgit.api.errors.TransportException;
import org.eclipse.jgit.errors.RepositoryNotFoundException;
import org.eclipse.jgit.lib.EmptyProgressMonitor;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.RepositoryCache;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.transport.HttpTransport;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.http.HttpConnection;
import org.eclipse.jgit.transport.http.JDKHttpConnectionFactory;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.util.FS;

/**
 * A git repository's files at the head of a branch, through JGit (no git binary): the repository is cloned bare
 * into the sources folder once, then fetched on each run; the files are read from the head commit's tree, each
 * hashed by its blob id. Comparing those with the blob ids recorded at the last synced commit is the diff between
 * the two commits (renames included: the same blob at a new path), and it stays right when a run died half-way.
 * The clone holds {@code openrag.sources.git-history-depth} commits of history, where each published file's own last
 * change is found ({@link GitHistory}): its document's {@code commit}, {@code modified} and {@code author}.
 *
 * <p>Remote repositories are https only, and every connection JGit makes goes through the crawler's policy proxy
 * ({@code openrag.fetch.*} rules), which resolves and checks each host itself and sees each redirect.
 */
final class GitScanner {

    static {
        JGitDefaults.use();
    }

    /**
     * What a run read: the head commit and its files, readable until it is closed, with the blob each path holds there
     * (its last change is looked up in the history, see {@link #lastChanges}).
     */
    record Head(String commit, List<SourceFile> files, Repository repository, Map<String, ObjectId> blobs)
            implements AutoCloseable {

        /**
         * The source fields of these paths' last changes ({@code commit}, {@code modified}, {@code author}; see
         * {@link GitHistory}), in one walk of the fetched history; paths the head does not hold readable are left out.
         */
        Map<String, Map<String, Object>> lastChanges(Collection<String> paths) {
            Map<String, ObjectId> asked = new HashMap<>();
            paths.forEach(path -> {
                if (blobs.containsKey(path)) {
                    asked.put(path, blobs.get(path));
                }
            });
            try {
                return GitHistory.lastChanges(repository, ObjectId.fromString(commit), asked);
            } catch (IOException e) {
                throw new SourceException("the history of commit " + commit + " could not be read: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            repository.close();
        }
    }

    private GitScanner() {
    }

    /** Every JGit HTTP connection of this application goes through {@code proxy} (set once; JGit is only used here). */
    static void routeThrough(InetSocketAddress proxy) {
        Proxy through = new Proxy(Proxy.Type.HTTP, proxy);
        HttpTransport.setConnectionFactory(new JDKHttpConnectionFactory() {
            @Override
            public HttpConnection create(URL url, Proxy ignored) throws IOException {
                return super.create(url, through);
            }

            @Override
            public HttpConnection create(URL url) throws IOException {
                return super.create(url, through);
            }
        });
    }

    /**
     * How far a clone may go: its size on disk ({@code openrag.sources.max-clone-bytes}), its time, and how many commits
     * of history it fetches back from the head ({@code openrag.sources.git-history-depth}, where files' last changes are
     * looked for).
     */
    record Bounds(long maxCloneBytes, int timeoutSeconds, int historyDepth) {
        Bounds {
            if (historyDepth < 1) {
                throw new SourceException("openrag.sources.git-history-depth must be at least 1 (the head commit), got " + historyDepth);
            }
        }
    }

    static Head read(String location, String branch, Path clone, PathFilter filter, int maxFiles, long maxFileBytes, Bounds bounds) {
        Repository repository = fetched(location, branch, clone, bounds);
        try (RevWalk commits = new RevWalk(repository); TreeWalk tree = new TreeWalk(repository);
             ObjectReader sizes = repository.newObjectReader()) {
            RevCommit commit = commits.parseCommit(head(repository, location, branch));
            tree.addTree(commit.getTree());
            tree.setRecursive(true);
            List<SourceFile> files = new ArrayList<>();
            Map<String, ObjectId> blobs = new HashMap<>();
            while (tree.next()) {
                String path = tree.getPathString();
                FileMode mode = tree.getFileMode(0);
                if (!filter.accepts(path) || mode == FileMode.GITLINK) {
                    continue; // submodules are other repositories
                }
                if (mode == FileMode.SYMLINK) {
                    files.add(SourceFile.unreadable(path, "a symbolic link: not followed"));
                    continue;
                }
                ObjectId blob = tree.getObjectId(0);
                long size = sizes.getObjectSize(blob, Constants.OBJ_BLOB);
                String hash = "git:" + blob.name();
                blobs.put(path, blob);
                files.add(size > maxFileBytes
                        ? SourceFile.unreadable(path, SourceReader.tooLarge(size + " bytes", maxFileBytes, FolderScanner.MAX_FILE_BYTES).getMessage())
                        : new SourceFile(path, hash, size, (limit, limitName) -> blob(repository, blob, hash, limit, limitName), null));
                if (files.size() > maxFiles) {
                    throw new SourceException("the repository holds more than " + maxFiles
                            + " files to sync (openrag.sources.max-files): narrow it with include or exclude globs");
                }
            }
            return new Head(commit.name(), files, repository, blobs);
        } catch (IOException | RuntimeException e) {
            repository.close();
            throw e instanceof SourceException source ? source
                    : new SourceException("repository '" + location + "' could not be read: " + e.getMessage(), e);
        }
    }

    /** A blob's bytes (its id is the hash of exactly these bytes), refused past the limit before it is read. */
    private static SourceReader.Content blob(Repository repository, ObjectId blob, String hash, long limit, String limitName)
            throws IOException {
        ObjectLoader loader = repository.open(blob, Constants.OBJ_BLOB);
        if (loader.getSize() > limit) {
            throw SourceReader.tooLarge(loader.getSize() + " bytes", limit, limitName);
        }
        return new SourceReader.Content(loader.getCachedBytes((int) Math.min(limit, Integer.MAX_VALUE - 16)), hash);
    }

    /**
     * The bare clone, cloned or fetched now: shallow ({@code historyDepth} commits back from the head, where the files'
     * last changes are looked for; the files are read at the head), only the source's branch when
     * it names one (else every branch, to find the default one), and stopped and removed when it grows past the bound.
     */
    private static Repository fetched(String location, String branch, Path clone, Bounds bounds) {
        boolean named = branch != null && !branch.isBlank();
        String heads = named ? Constants.R_HEADS + branch : Constants.R_HEADS + "*";
        SizeBound bound = new SizeBound(clone, bounds.maxCloneBytes());
        try {
            if (!RepositoryCache.FileKey.isGitRepository(clone.toFile(), FS.DETECTED)) {
                Files.createDirectories(clone.getParent());
                deleteQuietly(clone);
                var command = Git.cloneRepository().setURI(location).setGitDir(clone.toFile()).setBare(true).setDepth(bounds.historyDepth())
                        .setTimeout(bounds.timeoutSeconds()).setProgressMonitor(bound);
                if (named) {
                    command.setCloneAllBranches(false).setBranchesToClone(List.of(heads)).setBranch(heads);
                } else {
                    command.setCloneAllBranches(true);
                }
                return bound.checked(command.call().getRepository()); // it outlives this Git: the run's Head closes it
            }
            Git git = Git.open(clone.toFile());
            git.fetch().setRemote(Constants.DEFAULT_REMOTE_NAME).setRemoveDeletedRefs(true).setTimeout(bounds.timeoutSeconds())
                    .setDepth(bounds.historyDepth()).setProgressMonitor(bound).setRefSpecs(new RefSpec("+" + heads + ":" + heads)).call();
            return bound.checked(git.getRepository());
        } catch (GitAPIException | IOException | RuntimeException e) {
            if (named && String.valueOf(e.getMessage()).contains(branch)) { // the remote has no such branch
                removeLeftOver(clone);
                throw new SourceException(noSuchBranch(location, branch, remoteBranches(location, bounds.timeoutSeconds())), e);
            }
            if (!bound.exceeded()) {
                throw fetchFailure(location, e);
            }
            removeLeftOver(clone);
            throw new SourceException("the clone of repository '" + location + "' grew past " + bounds.maxCloneBytes()
                    + " bytes (openrag.sources.max-clone-bytes): it was stopped and removed; narrow the source to a smaller "
                    + "repository or raise the limit", e);
        }
    }

    /** The remote's branches, asked of it (a single-branch clone holds only one); none when it cannot say. */
    private static TreeSet<String> remoteBranches(String location, int timeoutSeconds) {
        TreeSet<String> branches = new TreeSet<>();
        try {
            for (Ref head : Git.lsRemoteRepository().setRemote(location).setHeads(true).setTimeout(timeoutSeconds).call()) {
                branches.add(head.getName().substring(Constants.R_HEADS.length()));
            }
        } catch (GitAPIException | RuntimeException e) {
            // the reason stays "no such branch"; the list is a courtesy
        }
        return branches;
    }

    private static String noSuchBranch(String location, String branch, TreeSet<String> branches) {
        return "repository '" + location + "' has no branch '" + branch + "'"
                + (branches.isEmpty() ? " (it has no branches)" : "; its branches: " + String.join(", ", branches));
    }

    private static SourceException fetchFailure(String location, Exception e) {
        try {
            throw e;
        } catch (InvalidRemoteException invalid) {
            throw new SourceException("'" + location + "' is not a git repository", e);
        } catch (TransportException transport) {
            return new SourceException(transportReason(location, transport), transport);
        } catch (Exception other) {
            return new SourceException("repository '" + location + "' could not be fetched: " + other.getMessage(), other);
        }
    }

    /** Cancels a clone or fetch once its folder holds more than the bound (looked at no more than every half second). */
    private static final class SizeBound extends EmptyProgressMonitor {
        private final Path folder;
        private final long maxBytes;
        private volatile boolean exceeded;
        private long lookedAt;

        SizeBound(Path folder, long maxBytes) {
            this.folder = folder;
            this.maxBytes = maxBytes;
            this.lookedAt = System.nanoTime() - 1_000_000_000L;
        }

        boolean exceeded() {
            return exceeded;
        }

        /** The repository, unless the clone ended past the bound between two looks (then closed, and cancelled). */
        Repository checked(Repository repository) {
            if (sizeOf(folder) > maxBytes) {
                exceeded = true;
                repository.close();
                throw new IllegalStateException("the clone is larger than the bound");
            }
            return repository;
        }

        @Override
        public boolean isCancelled() {
            long now = System.nanoTime();
            if (!exceeded && now - lookedAt > 500_000_000L) {
                lookedAt = now;
                exceeded = sizeOf(folder) > maxBytes;
            }
            return exceeded;
        }
    }

    private static long sizeOf(Path folder) {
        if (!Files.isDirectory(folder)) {
            return 0;
        }
        try (var walk = Files.walk(folder)) {
            return walk.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0; // files come and go while git writes: looked at again soon
        }
    }

    private static String transportReason(String location, TransportException e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("not found") || message.contains("does not appear to be a git repository")
                || e.getCause() instanceof RepositoryNotFoundException) {
            return "'" + location + "' is not a git repository";
        }
        if (message.contains("403")) {
            return "repository '" + location + "' refused by the fetch rules (openrag.fetch.*) or by the server: " + message;
        }
        return "repository '" + location + "' is unreachable: " + message;
    }

    private static ObjectId head(Repository repository, String location, String branch) throws IOException {
        String name = branch == null || branch.isBlank() ? Constants.HEAD : Constants.R_HEADS + branch;
        Ref ref = repository.exactRef(name);
        if (ref == null || ref.getObjectId() == null) {
            TreeSet<String> branches = new TreeSet<>();
            for (Ref head : repository.getRefDatabase().getRefsByPrefix(Constants.R_HEADS)) {
                branches.add(head.getName().substring(Constants.R_HEADS.length()));
            }
            if (branch == null || branch.isBlank()) {
                throw new SourceException("repository '" + location + "' has no commit on its default branch"
                        + (branches.isEmpty() ? "" : "; its branches: " + String.join(", ", branches)));
            }
            TreeSet<String> remote = remoteBranches(location, 30); // a single-branch clone knows only its own
            throw new SourceException(noSuchBranch(location, branch, remote.isEmpty() ? branches : remote));
        }
        return ref.getObjectId();
    }

    /**
     * The folders and links JGit reads a local repository through: its git folder (a {@code .git} file may name one
     * anywhere), its common folder (a worktree's {@code commondir} names the repository whose objects and refs it reads),
     * its objects, every object folder it borrows from through {@code objects/info/alternates}, transitively, and every
     * symbolic link inside these folders (JGit follows them: {@code objects/pack} or {@code refs} made a link would read
     * another repository). A repository in an allowed folder could otherwise read objects from outside it. More than
     * {@value #MAX_FOLDERS_READ} folders is refused rather than partly checked.
     */
    static List<Path> foldersRead(Path folder) throws IOException {
        FileRepositoryBuilder builder = new FileRepositoryBuilder();
        if (RepositoryCache.FileKey.isGitRepository(folder.toFile(), FS.DETECTED) || !Files.exists(folder.resolve(Constants.DOT_GIT))) {
            builder.setGitDir(folder.toFile());
        } else {
            builder.setWorkTree(folder.toFile());
        }
        builder.setup();
        Path gitDir = builder.getGitDir().toPath();
        List<Path> read = new ArrayList<>(List.of(gitDir));
        Deque<Path> objectFolders = new ArrayDeque<>();
        for (File more : new File[] {builder.getGitCommonDir(), builder.getObjectDirectory()}) {
            if (more != null && !read.contains(more.toPath())) {
                read.add(more.toPath());
            }
        }
        Path commonDir = builder.getGitCommonDir() == null ? gitDir : builder.getGitCommonDir().toPath();
        for (Path objects : new LinkedHashSet<>(List.of(gitDir.resolve("objects"), commonDir.resolve("objects"),
                builder.getObjectDirectory().toPath()))) {
            if (!read.contains(objects)) {
                read.add(objects);
            }
            objectFolders.add(objects);
        }
        List<Path> inspected = new ArrayList<>();
        while (!objectFolders.isEmpty()) {
            Path objects = objectFolders.pop();
            if (inspected.contains(objects)) {
                continue;
            }
            if (inspected.size() >= MAX_FOLDERS_READ) {
                throw new IOException("it borrows objects from more than " + MAX_FOLDERS_READ + " folders (objects/info/alternates)");
            }
            inspected.add(objects);
            Path alternates = objects.resolve("info/alternates");
            if (!Files.isRegularFile(alternates)) {
                continue;
            }
            for (String line : Files.readAllLines(alternates)) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                Path borrowed = objects.resolve(line.strip()).normalize(); // a relative line is relative to the objects folder
                if (!read.contains(borrowed)) {
                    read.add(borrowed);
                }
                objectFolders.push(borrowed);
            }
        }
        for (Path walked : new LinkedHashSet<>(read)) {
            read.addAll(linksIn(walked));
        }
        return read;
    }

    /** The symbolic links anywhere under a folder (not followed), so that where each leads is checked too. */
    private static List<Path> linksIn(Path folder) throws IOException {
        if (!Files.isDirectory(folder, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        try (var walk = Files.walk(folder)) {
            return walk.filter(path -> !path.equals(folder) && Files.isSymbolicLink(path)).toList();
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static final int MAX_FOLDERS_READ = 16;

    static boolean isRepository(File folder) {
        return RepositoryCache.FileKey.isGitRepository(new File(folder, ".git"), FS.DETECTED)
                || RepositoryCache.FileKey.isGitRepository(folder, FS.DETECTED);
    }

    /** A clone that failed half-way goes; one that cannot be removed is cloned over on the next run anyway. */
    private static void removeLeftOver(Path clone) {
        try {
            deleteQuietly(clone);
        } catch (IOException | RuntimeException e) {
            // deleteQuietly runs again before the next clone
        }
    }

    private static void deleteQuietly(Path folder) throws IOException {
        if (Files.exists(folder)) {
            try (var walk = Files.walk(folder)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }
}
