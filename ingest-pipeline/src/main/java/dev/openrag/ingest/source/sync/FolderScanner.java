package dev.openrag.ingest.source.sync;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A folder's files now, hashed (SHA-256 of the bytes, streamed through {@link SourceReader}, which never follows a
 * link). Symbolic links are reported, never followed; hidden folders are not entered; {@code forbidden} paths (the
 * server's data folder and key file) are never read; a file larger than {@code maxFileBytes} (its size attribute) is
 * refused with its size and the limit without being read. A file or folder that cannot be read is reported as
 * unreadable: its documents stay as they were.
 */
final class FolderScanner {

    private FolderScanner() {
    }

    static final String MAX_FILE_BYTES = "openrag.sources.max-file-bytes";

    /** Folders deeper than this are reported unreadable (their documents stay), not walked. */
    static final int MAX_DEPTH = 256;

    /** Tests only: runs before the walk goes down into a folder (relative path), where an attacker swaps it for a link. */
    static volatile Consumer<String> beforeDescend = relative -> { };

    static List<SourceFile> scan(SourceReader.Root source, PathFilter filter, List<Path> forbidden, int maxFiles, long maxFileBytes) {
        Path root = source.path();
        List<SourceFile> files = new ArrayList<>();
        DirectoryStream<Path> opened;
        try {
            opened = Files.newDirectoryStream(root);
        } catch (IOException e) {
            throw new SourceException("folder '" + root + "' could not be read: " + reason(e), e);
        }
        if (opened instanceof SecureDirectoryStream<Path> top) {
            // each folder opened relative to the one above it, links refused: a folder swapped for a link during the
            // walk is reported, never listed (its names outside the source are never seen)
            try (top) {
                Object key = top.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
                if (!Objects.equals(key, source.key())) {
                    throw new SourceException("the source's folder '" + root + "' was replaced while the run read it");
                }
                walk(source, top, "", 0, filter, forbidden, maxFiles, maxFileBytes, files);
            } catch (java.nio.file.DirectoryIteratorException e) {
                throw new SourceException("folder '" + root + "' could not be read: " + reason(e.getCause()), e);
            } catch (IOException e) {
                throw new SourceException("folder '" + root + "' could not be read: " + reason(e), e);
            }
            return files;
        }
        try {
            opened.close();
        } catch (IOException e) {
            // listed again below
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    if (dir.equals(root)) {
                        return FileVisitResult.CONTINUE;
                    }
                    String relative = relative(root, dir);
                    if (PathFilter.hidden(relative) || isForbidden(dir, forbidden)) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    beforeDescend.accept(relative);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    String relative = relative(root, file);
                    if (!filter.accepts(relative) || isForbidden(file, forbidden)) {
                        return FileVisitResult.CONTINUE;
                    }
                    list(source, relative, attrs, maxFiles, maxFileBytes, files);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    String relative = relative(root, file);
                    if (!PathFilter.hidden(relative)) { // a folder that cannot be listed protects everything under it
                        files.add(SourceFile.unreadable(Files.isDirectory(file, java.nio.file.LinkOption.NOFOLLOW_LINKS) ? relative + "/" : relative, "unreadable: " + reason(e)));
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new SourceException("folder '" + root + "' could not be read: " + reason(e), e);
        }
        return files;
    }

    private static void walk(SourceReader.Root source, SecureDirectoryStream<Path> folder, String prefix, int depth, PathFilter filter,
                             List<Path> forbidden, int maxFiles, long maxFileBytes, List<SourceFile> files) {
        for (Path entry : folder) {
            Path name = entry.getFileName();
            String relative = prefix + name;
            BasicFileAttributes attrs;
            try {
                attrs = folder.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
            } catch (IOException e) {
                if (!PathFilter.hidden(relative)) {
                    files.add(SourceFile.unreadable(relative, "unreadable: " + reason(e)));
                }
                continue;
            }
            if (attrs.isDirectory()) {
                if (PathFilter.hidden(relative) || isForbidden(source.path().resolve(relative), forbidden)) {
                    continue;
                }
                if (depth + 1 >= MAX_DEPTH) {
                    files.add(SourceFile.unreadable(relative + "/", "unreadable: deeper than " + MAX_DEPTH + " folders"));
                    continue;
                }
                beforeDescend.accept(relative);
                try (SecureDirectoryStream<Path> below = folder.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
                    walk(source, below, relative + "/", depth + 1, filter, forbidden, maxFiles, maxFileBytes, files);
                } catch (IOException | java.nio.file.DirectoryIteratorException e) { // swapped for a link or a file: reported, not followed
                    files.add(SourceFile.unreadable(relative + "/", "unreadable: " + reason(e instanceof java.nio.file.DirectoryIteratorException d
                            ? d.getCause() : (Exception) e)));
                }
                continue;
            }
            if (!filter.accepts(relative) || isForbidden(source.path().resolve(relative), forbidden)) {
                continue;
            }
            list(source, relative, attrs, maxFiles, maxFileBytes, files);
        }
    }

    /** One accepted entry of either walk: a link is reported, a regular file hashed, anything else left out. */
    private static void list(SourceReader.Root source, String relative, BasicFileAttributes attrs, int maxFiles, long maxFileBytes,
                             List<SourceFile> files) {
        if (attrs.isSymbolicLink()) {
            files.add(SourceFile.unreadable(relative, "a symbolic link: not followed"));
        } else if (attrs.isRegularFile()) {
            SourceFile file = hashed(source, relative, attrs.size(), maxFileBytes);
            files.add(file.readable() ? file.withMetadata(times(attrs)) : file);
        }
        if (files.size() > maxFiles) {
            throw new SourceException("the folder holds more than " + maxFiles
                    + " files to sync (openrag.sources.max-files): narrow it with include or exclude globs");
        }
    }

    private static SourceFile hashed(SourceReader.Root source, String relative, long size, long maxFileBytes) {
        if (size > maxFileBytes) { // refused on its size attribute: never read (a sparse file of terabytes costs nothing)
            return SourceFile.unreadable(relative, SourceReader.tooLarge(size + " bytes", maxFileBytes, MAX_FILE_BYTES).getMessage());
        }
        try {
            String hash = SourceReader.hash(source, relative, maxFileBytes, MAX_FILE_BYTES);
            return new SourceFile(relative, hash, size, (limit, limitName) -> SourceReader.read(source, relative, limit, limitName), null);
        } catch (SourceReader.TooLargeException e) {
            return SourceFile.unreadable(relative, e.getMessage());
        } catch (IOException | SecurityException e) {
            return SourceFile.unreadable(relative, "unreadable: " + reason(e));
        }
    }

    /**
     * The file system's times as source fields: {@code modified}, and {@code created} where the file system keeps a
     * birth time (Java reports the modification time where it does not; then it is left out rather than guessed).
     */
    private static java.util.Map<String, Object> times(BasicFileAttributes attrs) {
        java.util.Map<String, Object> times = new java.util.LinkedHashMap<>();
        java.time.Instant modified = attrs.lastModifiedTime().toInstant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        java.time.Instant created = attrs.creationTime().toInstant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        if (!created.equals(modified) && created.toEpochMilli() > 0) {
            times.put("created", created.toString());
        }
        times.put("modified", modified.toString());
        return times;
    }

    private static boolean isForbidden(Path path, List<Path> forbidden) {
        Path absolute = path.toAbsolutePath().normalize();
        return forbidden.stream().anyMatch(absolute::startsWith);
    }

    private static String relative(Path root, Path path) {
        return root.relativize(path).toString().replace('\\', '/');
    }

    private static String reason(Exception e) {
        return e.getClass().getSimpleName().replace("Exception", "") + (e.getMessage() == null ? "" : " " + e.getMessage());
    }
}
