package dev.openrag.ingest.source.sync;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

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

    static List<SourceFile> scan(SourceReader.Root source, PathFilter filter, List<Path> forbidden, int maxFiles, long maxFileBytes) {
        Path root = source.path();
        List<SourceFile> files = new ArrayList<>();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    if (dir.equals(root)) {
                        return FileVisitResult.CONTINUE;
                    }
                    String relative = relative(root, dir);
                    return PathFilter.hidden(relative) || isForbidden(dir, forbidden) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    String relative = relative(root, file);
                    if (!filter.accepts(relative) || isForbidden(file, forbidden)) {
                        return FileVisitResult.CONTINUE;
                    }
                    if (attrs.isSymbolicLink()) {
                        files.add(SourceFile.unreadable(relative, "a symbolic link: not followed"));
                    } else if (attrs.isRegularFile()) {
                        files.add(hashed(source, relative, attrs.size(), maxFileBytes));
                    }
                    if (files.size() > maxFiles) {
                        throw new SourceException("the folder holds more than " + maxFiles
                                + " files to sync (openrag.sources.max-files): narrow it with include or exclude globs");
                    }
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
