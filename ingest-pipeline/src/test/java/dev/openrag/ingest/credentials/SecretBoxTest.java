package dev.openrag.ingest.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sealing at rest: values open with their key and context only, the key file is made once and kept private, bad keys are clear errors. */
class SecretBoxTest {

    @TempDir
    Path dir;

    private SecretBox fromFile(String name) {
        return new SecretBox(Optional.empty(), dir.resolve(name).toString());
    }

    @Test
    void aSealedValueOpensWithItsKeyAndContextOnlyAndHoldsNoClearText() throws Exception {
        SecretBox box = fromFile("data/secrets.key");
        String sealed = box.seal("hunter2-canary", "credential:intranet");

        assertThat(sealed).startsWith("v1:").doesNotContain("hunter2");
        assertThat(box.seal("hunter2-canary", "credential:intranet")).as("a fresh IV each time").isNotEqualTo(sealed);
        assertThat(box.open(sealed, "credential:intranet")).isEqualTo("hunter2-canary");
        assertThatThrownBy(() -> box.open(sealed, "credential:other")).as("bound to its record")
                .isInstanceOf(SecretBox.SealException.class).hasMessageNotContaining("hunter2");
        assertThat(fromFile("data/secrets.key").open(sealed, "credential:intranet")).as("the key file is kept, not made again")
                .isEqualTo("hunter2-canary");
        assertThatThrownBy(() -> fromFile("elsewhere.key").open(sealed, "credential:intranet")).as("another key")
                .isInstanceOf(SecretBox.SealException.class).hasMessageContaining("does not open with this server's key");

        Path keyFile = dir.resolve("data/secrets.key");
        assertThat(Base64.getDecoder().decode(Files.readString(keyFile).strip())).hasSize(32);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile))).isEqualTo("rw-------");
    }

    @Test
    void aConfiguredKeyIsUsedAndABadOneIsAClearError() {
        String key = Base64.getEncoder().encodeToString(new byte[32]);
        SecretBox configured = new SecretBox(Optional.of(key), dir.resolve("unused.key").toString());
        String sealed = configured.seal("value", "crawl:1");
        assertThat(new SecretBox(Optional.of(key), dir.resolve("other.key").toString()).open(sealed, "crawl:1")).isEqualTo("value");
        assertThat(Files.exists(dir.resolve("unused.key"))).as("no key file with a configured key").isFalse();

        assertThatThrownBy(() -> new SecretBox(Optional.of("too-short"), dir.resolve("x.key").toString()).seal("v", "c"))
                .isInstanceOf(SecretBox.SealException.class).hasMessageContaining("32 bytes in base64");
        assertThatThrownBy(() -> configured.open("plain text", "crawl:1")).hasMessageContaining("not in a known format");
        assertThatThrownBy(() -> configured.open("v1:%%%", "crawl:1")).hasMessageContaining("not in a known format");
    }
}
