package dev.openrag.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.jar.JarFile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassDataSharingTest {

    @TempDir
    Path temp;

    @Test
    void anEngineOfJarsGetsAnArchiveNamedAfterItsMainClassAndJars() throws Exception {
        Path cache = temp.resolve("cds");
        String classpath = jars("a.jar", "b.jar");

        ClassDataSharing.Launch launch = ClassDataSharing.of("org.example.ServerMain", classpath, cache);

        assertThat(launch.options()).contains("-XX:+AutoCreateSharedArchive", "-XX:+VerifySharedSpaces");
        assertThat(launch.classpath()).isEqualTo(classpath);
        String archive = archiveOf(launch);
        assertThat(Path.of(archive).getParent()).isEqualTo(cache);
        assertThat(Path.of(archive).getFileName().toString()).matches("ServerMain-[0-9a-f]{8}-[0-9a-f]{8}\\.jsa");
        assertThat(cache).isDirectory();
        assertThat(archiveOf(ClassDataSharing.of("org.example.ServerMain", classpath, cache)))
                .as("the same jars, the same archive").isEqualTo(archive);
    }

    @Test
    void aRebuiltJarGetsANewArchiveAndTheStaleOneIsDeleted() throws Exception {
        Path cache = temp.resolve("cds");
        String classpath = jars("a.jar", "b.jar");
        Path before = Path.of(archiveOf(ClassDataSharing.of("org.example.ServerMain", classpath, cache)));
        Files.write(before, new byte[] {1}); // as the engine's JVM leaves it when it exits
        Path otherEngine = Files.write(cache.resolve("OtherMain-0000abcd-0000abcd.jsa"), new byte[] {1});
        Path otherClasspath = Path.of(archiveOf(ClassDataSharing.of("org.example.ServerMain", jars("a.jar"), cache)));
        Files.write(otherClasspath, new byte[] {1});

        Files.setLastModifiedTime(temp.resolve("b.jar"), FileTime.from(Instant.now().plusSeconds(60)));
        Path after = Path.of(archiveOf(ClassDataSharing.of("org.example.ServerMain", classpath, cache)));

        assertThat(after).isNotEqualTo(before);
        assertThat(before).as("the JVM would never use it again").doesNotExist();
        assertThat(otherEngine).as("another engine's archive").exists();
        assertThat(otherClasspath).as("the same engine's from other jars (the CLI's, the tests')").exists();
    }

    @Test
    void aClassesDirectoryIsGivenToTheEngineAsAJarOfItsContentsRebuiltWhenAClassChanges() throws Exception {
        Path cache = temp.resolve("cds");
        Path classes = Files.createDirectories(temp.resolve("classes/org/example"));
        Files.writeString(classes.resolve("ServerMain.class"), "version 1");
        String classpath = jars("a.jar") + File.pathSeparator + temp.resolve("classes");

        ClassDataSharing.Launch first = ClassDataSharing.of("org.example.ServerMain", classpath, cache);

        assertThat(first.options()).isNotEmpty();
        String[] entries = first.classpath().split(File.pathSeparator);
        assertThat(entries[0]).isEqualTo(temp.resolve("a.jar").toString());
        Path jar = Path.of(entries[1]);
        assertThat(jar.getParent()).isEqualTo(cache.resolve("jars"));
        try (JarFile contents = new JarFile(jar.toFile())) {
            assertThat(new String(contents.getInputStream(contents.getEntry("org/example/ServerMain.class")).readAllBytes()))
                    .isEqualTo("version 1");
        }
        assertThat(ClassDataSharing.of("org.example.ServerMain", classpath, cache).classpath())
                .as("unchanged classes: the same jar, so the archive stays valid").isEqualTo(first.classpath());

        Files.writeString(classes.resolve("ServerMain.class"), "version 2, rebuilt");
        ClassDataSharing.Launch rebuilt = ClassDataSharing.of("org.example.ServerMain", classpath, cache);

        Path newJar = Path.of(rebuilt.classpath().split(File.pathSeparator)[1]);
        assertThat(newJar).isNotEqualTo(jar);
        assertThat(jar).as("the stale jar").doesNotExist();
        assertThat(archiveOf(rebuilt)).isNotEqualTo(archiveOf(first));
    }

    @Test
    void aMissingClasspathEntryMeansNoArchiveAndTheClasspathAsGiven() throws Exception {
        String classpath = jars("a.jar") + File.pathSeparator + temp.resolve("missing.jar");

        ClassDataSharing.Launch launch = ClassDataSharing.of("org.example.ServerMain", classpath, temp.resolve("cds"));

        assertThat(launch.options()).isEmpty();
        assertThat(launch.classpath()).isEqualTo(classpath);
    }

    private String jars(String... names) throws Exception {
        StringBuilder classpath = new StringBuilder();
        for (String name : names) {
            Path jar = temp.resolve(name);
            if (!Files.exists(jar)) {
                Files.writeString(jar, name);
            }
            classpath.append(classpath.isEmpty() ? "" : File.pathSeparator).append(jar);
        }
        return classpath.toString();
    }

    private static String archiveOf(ClassDataSharing.Launch launch) {
        return launch.options().stream().filter(option -> option.startsWith("-XX:SharedArchiveFile="))
                .map(option -> option.substring("-XX:SharedArchiveFile=".length())).findFirst().orElseThrow();
    }
}
