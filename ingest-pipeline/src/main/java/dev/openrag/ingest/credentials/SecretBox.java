package dev.openrag.ingest.credentials;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Seals secrets at rest (credential values, a crawl's literal login values) with AES-256-GCM. The
 * key is {@code openrag.secrets.key} (env {@code OPENRAG_SECRETS_KEY}: 32 bytes in base64, e.g.
 * {@code openssl rand -base64 32}), or else a key file ({@code openrag.secrets.key-file}) generated
 * on first use, readable by its owner only. Every instance of a cluster needs the same key: set the
 * variable there (the local stack shares one file). Each sealed value is bound to its context (the
 * credential's name, the crawl's id), so a sealed value copied onto another record does not open.
 * The key is read on first use, so an app that never seals anything needs no key.
 */
@ApplicationScoped
public class SecretBox {

    private static final String FORMAT = "v1:";
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Optional<String> configuredKey;
    private final Path keyFile;
    private volatile SecretKey key;

    public SecretBox(@ConfigProperty(name = "openrag.secrets.key") Optional<String> configuredKey,
                     @ConfigProperty(name = "openrag.secrets.key-file", defaultValue = "${user.home}/.openrag/secrets.key") String keyFile) {
        this.configuredKey = configuredKey.filter(value -> !value.isBlank());
        this.keyFile = Path.of(keyFile);
    }

    /** Sealed {@code plain}, bound to {@code context}. */
    public String seal(String plain, String context) {
        byte[] iv = new byte[IV_BYTES];
        RANDOM.nextBytes(iv);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, iv, context);
            byte[] sealed = cipher.doFinal(plain.getBytes(StandardCharsets.UTF_8));
            byte[] out = new byte[IV_BYTES + sealed.length];
            System.arraycopy(iv, 0, out, 0, IV_BYTES);
            System.arraycopy(sealed, 0, out, IV_BYTES, sealed.length);
            return FORMAT + Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("could not seal a secret: " + e.getMessage(), e);
        }
    }

    /** The plain text of a value {@link #seal sealed} with {@code context}; an error that says why, never the value. */
    public String open(String sealed, String context) {
        if (sealed == null || !sealed.startsWith(FORMAT)) {
            throw new SealException("a stored secret is not in a known format");
        }
        byte[] in;
        try {
            in = Base64.getDecoder().decode(sealed.substring(FORMAT.length()));
        } catch (IllegalArgumentException e) {
            throw new SealException("a stored secret is not in a known format");
        }
        if (in.length <= IV_BYTES) {
            throw new SealException("a stored secret is not in a known format");
        }
        try {
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, java.util.Arrays.copyOf(in, IV_BYTES), context);
            return new String(cipher.doFinal(in, IV_BYTES, in.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (javax.crypto.AEADBadTagException e) {
            throw new SealException("a stored secret does not open with this server's key (was OPENRAG_SECRETS_KEY or "
                    + keyFile + " changed?)");
        } catch (GeneralSecurityException e) {
            throw new SealException("a stored secret could not be opened: " + e.getMessage());
        }
    }

    private Cipher cipher(int mode, byte[] iv, String context) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, key(), new GCMParameterSpec(TAG_BITS, iv));
        cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
        return cipher;
    }

    private SecretKey key() {
        SecretKey known = key;
        if (known == null) {
            synchronized (this) {
                if (key == null) {
                    key = new SecretKeySpec(configuredKey.map(value -> decoded(value, "OPENRAG_SECRETS_KEY must be 32 bytes in base64"
                            + " (openssl rand -base64 32)")).orElseGet(this::fromFile), "AES");
                }
                known = key;
            }
        }
        return known;
    }

    /** 32 bytes from base64, or a {@link SealException} saying {@code problem}. */
    private static byte[] decoded(String base64, String problem) {
        try {
            byte[] bytes = Base64.getDecoder().decode(base64.strip());
            if (bytes.length == 32) {
                return bytes;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new SealException(problem);
    }

    /** The key file's key, made (owner-only) when there is none; of two instances making it at once, one file wins. */
    private byte[] fromFile() {
        try {
            if (!Files.exists(keyFile)) {
                byte[] fresh = new byte[32];
                RANDOM.nextBytes(fresh);
                Path parent = keyFile.toAbsolutePath().getParent();
                Files.createDirectories(parent);
                Path temporary = Files.createTempFile(parent, ".secrets", ".key");
                try {
                    Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
                } catch (UnsupportedOperationException e) {
                    // not a POSIX file system: the directory's own permissions protect it
                }
                Files.writeString(temporary, Base64.getEncoder().encodeToString(fresh), StandardOpenOption.TRUNCATE_EXISTING);
                try {
                    Files.createLink(keyFile, temporary); // fails, atomically, where another instance made it first
                } catch (FileAlreadyExistsException e) {
                    // that one's key is everyone's
                } catch (UnsupportedOperationException e) {
                    Files.move(temporary, keyFile);
                } finally {
                    Files.deleteIfExists(temporary);
                }
            }
            return decoded(Files.readString(keyFile), keyFile + " does not hold a key (32 bytes in base64)");
        } catch (IOException e) {
            throw new SealException("no secrets key: set OPENRAG_SECRETS_KEY, or let the server write " + keyFile + " ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    /** A secret could not be sealed or opened; the message never holds a secret. */
    public static final class SealException extends IllegalStateException {
        public SealException(String message) {
            super(message);
        }
    }
}
