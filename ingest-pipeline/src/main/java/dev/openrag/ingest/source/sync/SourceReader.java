package dev.openrag.ingest.source.sync;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Reads a folder source's files without ever leaving it. A read opens the source's folder and checks that it is still
 * the folder checked at the start of the run (same file key), then goes down the file's path one folder at a time,
 * each opened relative to the one above it with links refused ({@link SecureDirectoryStream}: {@code openat} with
 * {@code O_NOFOLLOW}). A link put in place of the file, or of any folder above it, at any moment before or during the
 * read, is refused, never followed. The bytes are hashed as they stream, and no more than the limit is ever read.
 *
 * <p>Where the platform has no secure directory streams, each part is checked not to be a link just before the file
 * is opened without following links, and the real path of the opened file's folder is checked against the root after.
 */
final class SourceReader {

    /** A source's folder as checked when the run started: its real path and its file key (device and inode). */
    record Root(Path path, Object key) {

        static Root of(Path realPath) throws IOException {
            BasicFileAttributes attributes = Files.readAttributes(realPath, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isDirectory()) {
                throw new IOException("'" + realPath + "' is not a folder");
            }
            return new Root(realPath, attributes.fileKey());
        }
    }

    /** A file's bytes as read and the SHA-256 of exactly those bytes. */
    record Content(byte[] bytes, String hash) {
    }

    /** A file longer than the limit: refused, with its size so far and the limit. */
    static final class TooLargeException extends IOException {
        TooLargeException(String message) {
            super(message);
        }
    }

    private static final int CHUNK = 64 * 1024;

    private SourceReader() {
    }

    /** The SHA-256 of a file under the root, streamed (nothing is kept); fails past {@code limit} bytes. */
    static String hash(Root root, String relative, long limit, String limitName) throws IOException {
        return read(root, relative, limit, limitName, false).hash();
    }

    /** A file's bytes under the root and their hash, read once; fails past {@code limit} bytes. */
    static Content read(Root root, String relative, long limit, String limitName) throws IOException {
        return read(root, relative, limit, limitName, true);
    }

    private static Content read(Root root, String relative, long limit, String limitName, boolean keep) throws IOException {
        List<String> parts = List.of(relative.split("/"));
        if (parts.isEmpty() || parts.stream().anyMatch(part -> part.isEmpty() || part.equals(".") || part.equals(".."))) {
            throw new IOException("'" + relative + "' is not a path inside the source");
        }
        DirectoryStream<Path> opened = Files.newDirectoryStream(root.path());
        if (!(opened instanceof SecureDirectoryStream<Path> folder)) {
            opened.close();
            return readChecked(root, relative, limit, limitName, keep);
        }
        try {
            Object key = folder.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
            if (!Objects.equals(key, root.key())) {
                throw new IOException("the source's folder '" + root.path() + "' was replaced while the run read it");
            }
            for (String part : parts.subList(0, parts.size() - 1)) {
                SecureDirectoryStream<Path> below = folder.newDirectoryStream(Path.of(part), LinkOption.NOFOLLOW_LINKS);
                folder.close();
                folder = below;
            }
            Path name = Path.of(parts.get(parts.size() - 1));
            BasicFileAttributes attributes = folder.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .readAttributes();
            if (!attributes.isRegularFile()) {
                throw new IOException(attributes.isSymbolicLink() ? "a symbolic link: not followed" : "not a regular file");
            }
            try (SeekableByteChannel channel = folder.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
                return stream(channel, attributes.size(), limit, limitName, keep);
            }
        } catch (FileSystemException e) {
            throw linkAware(e);
        } finally {
            folder.close();
        }
    }

    /** The fallback: every part checked not to be a link, the file opened without following one, its folder checked after. */
    private static Content readChecked(Root root, String relative, long limit, String limitName, boolean keep) throws IOException {
        Path file = root.path();
        for (String part : relative.split("/")) {
            file = file.resolve(part);
            if (Files.isSymbolicLink(file)) {
                throw new IOException("a symbolic link: not followed ('" + root.path().relativize(file) + "')");
            }
        }
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isRegularFile()) {
            throw new IOException("not a regular file");
        }
        try (SeekableByteChannel channel = Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            if (!file.getParent().toRealPath().startsWith(root.path())) {
                throw new IOException("a folder on its path was replaced by a link: not followed");
            }
            return stream(channel, attributes.size(), limit, limitName, keep);
        } catch (FileSystemException e) {
            throw linkAware(e);
        }
    }

    private static Content stream(SeekableByteChannel channel, long size, long limit, String limitName, boolean keep) throws IOException {
        if (size > limit) {
            throw tooLarge(size + " bytes", limit, limitName);
        }
        MessageDigest digest = sha256();
        ByteArrayOutputStream kept = keep ? new ByteArrayOutputStream((int) Math.min(size, limit)) : null;
        ByteBuffer buffer = ByteBuffer.allocate(CHUNK);
        long total = 0;
        int n;
        while ((n = channel.read(buffer.clear())) >= 0) {
            total += n;
            if (total > limit) { // it grew while it was read, or its size lied
                throw tooLarge("more than " + limit + " bytes (it grew while it was read)", limit, limitName);
            }
            digest.update(buffer.array(), 0, n);
            if (kept != null) {
                kept.write(buffer.array(), 0, n);
            }
        }
        return new Content(kept == null ? null : kept.toByteArray(), HexFormat.of().formatHex(digest.digest()));
    }

    static TooLargeException tooLarge(String size, long limit, String limitName) {
        return new TooLargeException("file too large: " + size + ", the limit is " + limit + " (" + limitName + ")");
    }

    private static IOException linkAware(FileSystemException e) {
        String reason = String.valueOf(e.getReason());
        return reason.contains("symbolic links") || reason.contains("Not a directory")
                ? new IOException("a symbolic link on its path: not followed (" + reason + ")", e) : e;
    }

    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(sha256().digest(bytes));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
