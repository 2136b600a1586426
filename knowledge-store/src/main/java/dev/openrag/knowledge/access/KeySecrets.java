package dev.openrag.knowledge.access;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Key secrets: 32 random bytes behind an {@code ork_} prefix (so a leaked key is recognisable in
 * logs and by secret scanners), stored only as their SHA-256. A plain hash is enough for secrets
 * of 256 random bits (nothing to brute-force, as with GitHub tokens); a slow salted hash would
 * only cost every request time.
 */
public final class KeySecrets {

    public static final String PREFIX = "ork_";

    private static final SecureRandom RANDOM = new SecureRandom();

    private KeySecrets() {
    }

    public static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public static String hash(String secret) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** Compares two secrets in time independent of where they differ. */
    public static boolean same(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
