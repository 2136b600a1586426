package dev.openrag.schemas;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;

/** The id rules of ARCHITECTURE §3, shared by every producer and sink so ids always agree. */
public final class Ids {

    private Ids() {
    }

    /** {@code collection/documentId#index}: unique across collections, stable across re-ingestion. */
    public static String chunkId(String collection, String documentId, int index) {
        return collection + "/" + documentId + "#" + index;
    }

    /** A document id derived from its source uri, for producers that give none. */
    public static String documentIdFromUri(String uri) {
        return sha256Hex(uri).substring(0, 32);
    }

    /** Qdrant point ids must be UUIDs or integers: a name-based UUID of the chunk id. */
    public static UUID pointId(String chunkId) {
        return UUID.nameUUIDFromBytes(chunkId.getBytes(StandardCharsets.UTF_8));
    }

    /** Content hash that tells a new version of a document from a redelivery of the same one. */
    public static String contentHash(String content) {
        return sha256Hex(content);
    }

    public static String newEventId() {
        return UUID.randomUUID().toString();
    }

    private static String sha256Hex(String value) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
