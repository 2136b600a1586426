package dev.openrag.ingest.source.sync;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
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
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

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

    /** How long a file's open may take (a FIFO swapped in for a file blocks it): past this the file is refused. */
    static volatile Duration openTimeout = Duration.ofSeconds(10);

    /** Tests only: runs between a file's check (a regular file, not a link) and its open, where an attacker swaps it. */
    static volatile Consumer<String> beforeOpen = relative -> { };

    private static final ExecutorService OPENER = Executors.newCachedThreadPool(
            Thread.ofPlatform().name("source-open-", 0).daemon(true).factory());

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
        boolean handedOff = false;
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
            SecureDirectoryStream<Path> in = folder;
            beforeOpen.accept(relative);
            try (SeekableByteChannel channel = open(relative,
                    () -> in.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)), in)) {
                return stream(channel, attributes.size(), limit, limitName, keep);
            }
        } catch (OpenAbandoned e) {
            handedOff = true; // closed by the open's thread: closing it here would wait for the open
            throw e;
        } catch (FileSystemException e) {
            throw linkAware(e);
        } finally {
            if (!handedOff) {
                folder.close();
            }
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
        Path opened = file;
        beforeOpen.accept(relative);
        try (SeekableByteChannel channel = open(relative, () -> Files.newByteChannel(opened, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS), null)) {
            if (!file.getParent().toRealPath().startsWith(root.path())) {
                throw new IOException("a folder on its path was replaced by a link: not followed");
            }
            return stream(channel, attributes.size(), limit, limitName, keep);
        } catch (FileSystemException e) {
            throw linkAware(e);
        }
    }

    /**
     * Opens a file checked to be a regular file, which it may no longer be: a FIFO put in its place between the check and
     * the open blocks the open until a writer comes (never, when the one who put it there wants the run to hang), and one
     * with a writer streams whatever it is sent. The open is given {@link #openTimeout} on a thread of its own (left
     * blocked, as a daemon, until the FIFO is opened for writing), and what it opened must be seekable, as a regular
     * file is and a FIFO or socket is not.
     */
    private static SeekableByteChannel open(String relative, Callable<SeekableByteChannel> opening, Closeable folder) throws IOException {
        AtomicInteger state = new AtomicInteger(OPENING);
        Future<SeekableByteChannel> future = OPENER.submit(() -> {
            SeekableByteChannel opened = null;
            try {
                opened = opening.call();
                return opened;
            } finally {
                if (!state.compareAndSet(OPENING, OPENED)) { // given up on: what it holds is closed here
                    closeQuietly(opened);
                    closeQuietly(folder);
                }
            }
        });
        SeekableByteChannel channel;
        try {
            channel = future.get(openTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | InterruptedException e) {
            if (state.compareAndSet(OPENING, ABANDONED)) { // the open goes on without us; its folder is closed when it ends
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new OpenAbandoned("it did not open within " + openTimeout.toMillis() + " ms: not a regular file "
                        + "(a FIFO put in its place?)");
            }
            channel = done(future); // it opened just now
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
        try {
            channel.position(); // a FIFO or a socket cannot tell its position (ESPIPE): not a regular file
            return channel;
        } catch (IOException e) {
            channel.close();
            throw new IOException("not a regular file (it cannot be positioned: a FIFO put in its place?)", e);
        }
    }

    private static final int OPENING = 0;
    private static final int OPENED = 1;
    private static final int ABANDONED = 2;

    /** An open given up on: its thread closes the folder it opened in, when (if ever) the open returns. */
    private static final class OpenAbandoned extends IOException {
        OpenAbandoned(String message) {
            super(message);
        }
    }

    private static SeekableByteChannel done(Future<SeekableByteChannel> future) throws IOException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while a file opened");
        }
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            if (closeable != null) {
                closeable.close();
            }
        } catch (IOException | RuntimeException ignored) {
            // it is gone either way
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
