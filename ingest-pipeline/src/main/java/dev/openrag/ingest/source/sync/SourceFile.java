package dev.openrag.ingest.source.sync;

import java.io.IOException;
import java.util.Map;

/**
 * A file a source holds now: its path (relative, {@code /}-separated), a hash of its content as scanned, its size, and
 * a way to read it. {@code unreadable} holds the reason when it could not be read: such a file is reported, never deleted.
 * {@code metadata}: what the document will carry (the file system's times as the scanner found them; the run adds the
 * path fields and the source's own metadata).
 */
public record SourceFile(String path, String hash, long size, Content content, String unreadable, Map<String, Object> metadata) {

    public SourceFile(String path, String hash, long size, Content content, String unreadable) {
        this(path, hash, size, content, unreadable, Map.of());
    }

    /** This file carrying {@code fields}. */
    SourceFile withMetadata(Map<String, Object> fields) {
        return new SourceFile(path, hash, size, content, unreadable, Map.copyOf(fields));
    }

    /**
     * A fingerprint of the metadata, recorded beside the content hash: a run that finds the content the same and this
     * different republishes the file, and the pipeline then updates only its metadata. Null without metadata.
     */
    String metadataHash() {
        return metadata.isEmpty() ? null : dev.openrag.schemas.Ids.contentHash(new java.util.TreeMap<>(metadata).toString());
    }

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
