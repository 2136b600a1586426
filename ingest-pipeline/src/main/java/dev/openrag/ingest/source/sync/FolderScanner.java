package dev.openrag.ingest.source.sync;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A folder's files now, hashed (SHA-256 of the bytes). Symbolic links are not followed (one could lead out of the
 * allowed roots); hidden folders are not entered; {@code forbidden} paths (the server's data folder) are never read.
 * A file or folder that cannot be read is reported as unreadable: its documents stay as they were.
 */
final class FolderScanner {

    private FolderScanner() {
    }

    static List<SourceFile> scan(Path root, PathFilter filter, List<Path> forbidden, int maxFiles) {
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            throw new SourceException(Files.exists(root) ? "'" + root + "' is not a folder"
                    : "folder '" + root + "' does not exist (deleted, moved or not mounted): nothing was changed");
        }
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
                        files.add(read(file, relative, attrs.size()));
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
                        files.add(SourceFile.unreadable(Files.isDirectory(file) ? relative + "/" : relative, "unreadable: " + reason(e)));
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new SourceException("folder '" + root + "' could not be read: " + reason(e), e);
        }
        return files;
    }

    private static SourceFile read(Path file, String relative, long size) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            return new SourceFile(relative, sha256(bytes), size, () -> Files.readAllBytes(file), null);
        } catch (IOException | SecurityException e) {
            return SourceFile.unreadable(relative, "unreadable: " + reason(e));
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
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
