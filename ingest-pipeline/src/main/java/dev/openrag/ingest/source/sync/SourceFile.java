package dev.openrag.ingest.source.sync;

import java.io.IOException;

/**
 * A file a source holds now: its path (relative, {@code /}-separated), a hash of its content as scanned, its size, and
 * a way to read it. {@code unreadable} holds the reason when it could not be read: such a file is reported, never deleted.
 */
public record SourceFile(String path, String hash, long size, Content content, String unreadable) {

    /** Reads the file's bytes once, with the hash of exactly those bytes, refusing more than {@code limit} bytes. */
    @FunctionalInterface
    public interface Content {
        SourceReader.Content read(long limit, String limitName) throws IOException;
    }

    static SourceFile unreadable(String path, String reason) {
        return new SourceFile(path, null, 0, null, reason);
    }

    boolean readable() {
        return unreadable == null;
    }
}
