package dev.openrag.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassDataSharingTest {

    @TempDir
    Path temp;

    @Test
    void anEngineOfJarsGetsAnArchiveNamedAfterItsMainClassAndJars() throws Exception {
        Path cache = temp.resolve("cds");
        String classpath = jars("a.jar", "b.jar");

        List<String> options = ClassDataSharing.options("org.example.ServerMain", classpath, cache);

        assertThat(options).contains("-XX:+AutoCreateSharedArchive", "-XX:+VerifySharedSpaces");
        String archive = archiveOf(options);
        assertThat(Path.of(archive).getParent()).isEqualTo(cache);
        assertThat(Path.of(archive).getFileName().toString()).matches("ServerMain-[0-9a-f]{8}-[0-9a-f]{8}\\.jsa");
        assertThat(cache).isDirectory();
        assertThat(archiveOf(ClassDataSharing.options("org.example.ServerMain", classpath, cache)))
                .as("the same jars, the same archive").isEqualTo(archive);
    }

    @Test
    void aRebuiltJarGetsANewArchiveAndTheStaleOneIsDeleted() throws Exception {
        Path cache = temp.resolve("cds");
        String classpath = jars("a.jar", "b.jar");
        Path before = Path.of(archiveOf(ClassDataSharing.options("org.example.ServerMain", classpath, cache)));
        Files.write(before, new byte[] {1}); // as the engine's JVM leaves it when it exits
        Path otherEngine = Files.write(cache.resolve("OtherMain-0000abcd-0000abcd.jsa"), new byte[] {1});
        Path otherClasspath = Path.of(archiveOf(ClassDataSharing.options("org.example.ServerMain", jars("a.jar"), cache)));
        Files.write(otherClasspath, new byte[] {1});

        Files.setLastModifiedTime(temp.resolve("b.jar"), FileTime.from(Instant.now().plusSeconds(60)));
        Path after = Path.of(archiveOf(ClassDataSharing.options("org.example.ServerMain", classpath, cache)));

        assertThat(after).isNotEqualTo(before);
        assertThat(before).as("the JVM would never use it again").doesNotExist();
        assertThat(otherEngine).as("another engine's archive").exists();
        assertThat(otherClasspath).as("the same engine's from other jars (the CLI's, the tests')").exists();
    }

    @Test
    void aClassesDirectoryOnTheClasspathMeansNoArchive() throws Exception {
        Path classes = Files.createDirectories(temp.resolve("classes"));
        Files.writeString(classes.resolve("Main.class"), "x");

        assertThat(ClassDataSharing.options("org.example.ServerMain", jars("a.jar") + File.pathSeparator + classes, temp.resolve("cds")))
                .as("the JVM fails to dump classes from directories").isEmpty();
        assertThat(ClassDataSharing.options("org.example.ServerMain", jars("a.jar") + File.pathSeparator + temp.resolve("missing.jar"),
                temp.resolve("cds"))).isEmpty();
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

    private static String archiveOf(List<String> options) {
        return options.stream().filter(option -> option.startsWith("-XX:SharedArchiveFile="))
                .map(option -> option.substring("-XX:SharedArchiveFile=".length())).findFirst().orElseThrow();
    }
}
