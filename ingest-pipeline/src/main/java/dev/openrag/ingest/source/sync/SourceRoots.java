package dev.openrag.ingest.source.sync;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.openrag.knowledge.runtime.ApiException;

/**
 * Which folders may be sources, checked when a source is saved and again when each run starts (the roots may have been
 * narrowed, the folder replaced by a link): a folder under one of {@code openrag.sources.allowed-roots} with no hidden
 * part (a name starting with '.') below that root, outside the server's data folder and not the secrets key file.
 */
@ApplicationScoped
public class SourceRoots {

    /** Why a folder may not be a source, and the HTTP status a request naming it gets. */
    record Refusal(int status, String reason) {
        ApiException asApiError() {
            return status == 403 ? new ApiException(403, "forbidden", reason) : ApiException.badRequest(reason);
        }
    }

    private final SourceSettings settings;
    /** Never read, whatever the roots: the sources folder (git clones), the key file's folder (the data folder), the key file. */
    private final List<Path> never;

    public SourceRoots(SourceSettings settings, @ConfigProperty(name = "openrag.secrets.key-file") String keyFile) {
        this.settings = settings;
        Path key = Path.of(keyFile).toAbsolutePath().normalize();
        List<Path> paths = new ArrayList<>(List.of(Path.of(settings.dir()).toAbsolutePath().normalize(), key));
        if (key.getParent() != null) {
            paths.add(key.getParent());
        }
        this.never = List.copyOf(paths);
    }

    /** The allowed roots now, as real paths. */
    List<Path> roots() {
        return settings.allowedRoots().orElse(List.of()).stream().filter(root -> !root.isBlank())
                .map(root -> real(Path.of(root.strip()))).toList();
    }

    /** The server's own files and folders, as real paths: a source never is one, never lies in one, and skips them inside it. */
    List<Path> never() {
        return never.stream().map(SourceRoots::real).toList();
    }

    /** A folder a request names: its real path, or a 400/403 with the reason. */
    Path allowedAtSave(String location) {
        Path given;
        try {
            given = Path.of(location);
        } catch (InvalidPathException e) {
            throw ApiException.badRequest("'" + location + "' is not a valid path");
        }
        if (!given.isAbsolute()) {
            throw ApiException.badRequest("field 'location' must be an absolute path, got '" + location + "'");
        }
        if (roots().isEmpty()) {
            throw new ApiException(403, "forbidden", "this server syncs no folders: its operator has not set openrag.sources.allowed-roots "
                    + "(env OPENRAG_SOURCES_ALLOWED_ROOTS)");
        }
        // nothing about a path outside the roots is told (whether it exists, is a folder): the roots are checked first, on
        // where the path leads (its nearest existing folder's real path, links and '..' as the kernel follows them), so
        // the answer is no probe of the server's files; a root named through a link (/tmp on macOS) still matches
        Path folder = real(given);
        if (outside(nearestReal(given))) {
            throw new ApiException(403, "forbidden", "folder '" + location + "' is outside the folders this server may sync "
                    + "(openrag.sources.allowed-roots)");
        }
        if (!Files.exists(folder)) {
            throw ApiException.badRequest("folder '" + location + "' does not exist");
        }
        if (!Files.isDirectory(folder)) {
            throw ApiException.badRequest("'" + location + "' is not a folder");
        }
        refusal(folder, location).ifPresent(refusal -> {
            throw refusal.asApiError();
        });
        return folder;
    }

    /**
     * A stored folder source's root as it is now, checked again: it must still be that real path (not replaced by a
     * link) and still be allowed. Throws {@link SourceException} with the reason, so the run fails and changes nothing.
     */
    SourceReader.Root atRun(Path stored) {
        if (!Files.isDirectory(stored, LinkOption.NOFOLLOW_LINKS)) {
            throw new SourceException(Files.isSymbolicLink(stored) ? "folder '" + stored + "' is now a symbolic link, which is never followed"
                    : Files.exists(stored) ? "'" + stored + "' is not a folder"
                    : "folder '" + stored + "' does not exist (deleted, moved or not mounted): nothing was changed");
        }
        Path now = real(stored);
        if (!now.equals(stored)) {
            throw new SourceException("folder '" + stored + "' now leads to '" + now + "' through a symbolic link, which is never "
                    + "followed: nothing was changed");
        }
        refusal(now, stored.toString()).ifPresent(refusal -> {
            throw new SourceException(refusal.reason() + ": this source no longer runs, nothing was changed");
        });
        try {
            return SourceReader.Root.of(now);
        } catch (IOException e) {
            throw new SourceException("folder '" + stored + "' could not be read: " + e.getMessage(), e);
        }
    }

    /**
     * Why a local repository may not be read, when JGit would read a folder or file of it outside the allowed roots or
     * inside the data folder ({@link GitScanner#foldersRead}: a {@code .git} file or {@code commondir} naming another
     * repository, {@code objects/info/alternates}, a symbolic link inside its git folder); checked when the source is
     * saved and again before each run, since the repository can change in between.
     */
    Optional<String> gitRefusal(Path repository) {
        List<Path> read;
        try {
            read = GitScanner.foldersRead(repository);
        } catch (IOException | RuntimeException e) {
            return Optional.of("repository '" + repository + "' could not be opened: " + e.getMessage());
        }
        List<Path> allowed = roots();
        List<Path> own = never();
        for (Path folder : read) {
            Path real = real(folder);
            if (allowed.stream().noneMatch(real::startsWith) || own.stream().anyMatch(real::startsWith)) {
                return Optional.of("repository '" + repository + "' reads '" + (folder.startsWith(repository) ? repository.relativize(folder) : folder) + "', which leads "
                        + "outside the folders this server may sync (openrag.sources.allowed-roots): a .git file, commondir, "
                        + "objects/info/alternates or a symbolic link in it points there");
            }
        }
        return Optional.empty();
    }

    /** The real path of the path's nearest existing folder, with the rest of the path after it (links followed as the kernel would). */
    private static Path nearestReal(Path path) {
        Path absolute = path.toAbsolutePath();
        for (Path existing = absolute; existing != null; existing = existing.getParent()) {
            try {
                Path real = existing.toRealPath();
                return real.resolve(existing.relativize(absolute)).normalize();
            } catch (IOException e) {
                // not there: its parent then
            }
        }
        return absolute.normalize();
    }

    private boolean outside(Path path) {
        return roots().stream().noneMatch(path::startsWith);
    }

    /** Why a real folder may not be read as (or as part of) a source, if it may not. */
    Optional<Refusal> refusal(Path real, String named) {
        List<Path> under = roots().stream().filter(real::startsWith).toList();
        if (under.isEmpty()) {
            return Optional.of(new Refusal(403, "folder '" + named + "' is outside the folders this server may sync "
                    + "(openrag.sources.allowed-roots)"));
        }
        // hidden parts count below the root the operator chose: /home/me/.ssh is hidden under /home/me
        List<Optional<String>> hidden = under.stream().map(root -> hiddenPart(root.relativize(real))).toList();
        if (hidden.stream().allMatch(Optional::isPresent)) {
            return Optional.of(new Refusal(400, "folder '" + named + "' is hidden ('" + hidden.get(0).get() + "' starts with a dot): "
                    + "hidden folders are never synced"));
        }
        for (Path own : never()) {
            if (real.startsWith(own)) {
                return Optional.of(new Refusal(400, "folder '" + named + "' lies in the server's data folder ('" + own
                        + "'), which is never synced"));
            }
        }
        return Optional.empty();
    }

    private static Optional<String> hiddenPart(Path relative) {
        for (Path part : relative) {
            if (part.toString().startsWith(".")) {
                return Optional.of(part.toString());
            }
        }
        return Optional.empty();
    }

    static Path real(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }
}
