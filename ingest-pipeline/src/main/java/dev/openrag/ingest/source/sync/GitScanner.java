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
import java.util.Deque;
import java.util.List;
import java.util.TreeSet;

import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.api.errors.InvalidRemoteException;
import org.eclipse.jgit.api.errors.TransportException;
import org.eclipse.jgit.errors.RepositoryNotFoundException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
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
 *
 * <p>Remote repositories are https only, and every connection JGit makes goes through the crawler's policy proxy
 * ({@code openrag.fetch.*} rules), which resolves and checks each host itself and sees each redirect.
 */
final class GitScanner {

    /** What a run read: the files at the commit, readable until it is closed. */
    record Head(String commit, List<SourceFile> files, Repository repository) implements AutoCloseable {
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

    static Head read(String location, String branch, Path clone, PathFilter filter, int maxFiles, int timeoutSeconds) {
        Repository repository = fetched(location, clone, timeoutSeconds);
        try (RevWalk commits = new RevWalk(repository); TreeWalk tree = new TreeWalk(repository);
             ObjectReader sizes = repository.newObjectReader()) {
            RevCommit commit = commits.parseCommit(head(repository, location, branch));
            tree.addTree(commit.getTree());
            tree.setRecursive(true);
            List<SourceFile> files = new ArrayList<>();
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
                files.add(new SourceFile(path, "git:" + blob.name(), sizes.getObjectSize(blob, Constants.OBJ_BLOB),
                        () -> repository.open(blob, Constants.OBJ_BLOB).getBytes(), null));
                if (files.size() > maxFiles) {
                    throw new SourceException("the repository holds more than " + maxFiles
                            + " files to sync (openrag.sources.max-files): narrow it with include or exclude globs");
                }
            }
            return new Head(commit.name(), files, repository);
        } catch (IOException | RuntimeException e) {
            repository.close();
            throw e instanceof SourceException source ? source
                    : new SourceException("repository '" + location + "' could not be read: " + e.getMessage(), e);
        }
    }

    /** The bare clone, cloned or fetched now. */
    private static Repository fetched(String location, Path clone, int timeoutSeconds) {
        try {
            if (!RepositoryCache.FileKey.isGitRepository(clone.toFile(), FS.DETECTED)) {
                Files.createDirectories(clone.getParent());
                deleteQuietly(clone);
                // the repository outlives this Git: the run's Head closes it
                return Git.cloneRepository().setURI(location).setGitDir(clone.toFile()).setBare(true)
                        .setCloneAllBranches(true).setTimeout(timeoutSeconds).call().getRepository();
            }
            Git git = Git.open(clone.toFile());
            git.fetch().setRemote(Constants.DEFAULT_REMOTE_NAME).setRemoveDeletedRefs(true).setTimeout(timeoutSeconds)
                    .setRefSpecs(new RefSpec("+refs/heads/*:refs/heads/*")).call();
            return git.getRepository();
        } catch (InvalidRemoteException e) {
            throw new SourceException("'" + location + "' is not a git repository", e);
        } catch (TransportException e) {
            throw new SourceException(transportReason(location, e), e);
        } catch (GitAPIException | IOException e) {
            throw new SourceException("repository '" + location + "' could not be fetched: " + e.getMessage(), e);
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
            throw new SourceException("repository '" + location + "' has no branch '" + branch + "'"
                    + (branches.isEmpty() ? " (it has no branches)" : "; its branches: " + String.join(", ", branches)));
        }
        return ref.getObjectId();
    }

    /**
     * The folders JGit reads a local repository from: its git folder (a {@code .git} file may name one anywhere), its
     * objects, and every object folder it borrows from through {@code objects/info/alternates}, transitively (at most
     * {@value #MAX_FOLDERS_READ}). A repository in an allowed folder could otherwise read objects from outside it.
     */
    static List<Path> foldersRead(Path folder) throws IOException {
        File gitDir = RepositoryCache.FileKey.isGitRepository(folder.toFile(), FS.DETECTED) ? folder.toFile()
                : new FileRepositoryBuilder().setWorkTree(folder.toFile()).setup().getGitDir();
        List<Path> read = new ArrayList<>(List.of(gitDir.toPath(), gitDir.toPath().resolve("objects")));
        Deque<Path> objectFolders = new ArrayDeque<>(List.of(gitDir.toPath().resolve("objects")));
        while (!objectFolders.isEmpty() && read.size() < MAX_FOLDERS_READ) {
            Path objects = objectFolders.pop();
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
                    objectFolders.push(borrowed);
                }
            }
        }
        return read;
    }

    private static final int MAX_FOLDERS_READ = 16;

    static boolean isRepository(File folder) {
        return RepositoryCache.FileKey.isGitRepository(new File(folder, ".git"), FS.DETECTED)
                || RepositoryCache.FileKey.isGitRepository(folder, FS.DETECTED);
    }

    private static void deleteQuietly(Path folder) throws IOException {
        if (Files.exists(folder)) {
            try (var walk = Files.walk(folder)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }
}
