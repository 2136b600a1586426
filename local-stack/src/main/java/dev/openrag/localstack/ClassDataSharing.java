package dev.openrag.localstack;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * A class-data-sharing archive per engine (JDK 19+ {@code -XX:+AutoCreateSharedArchive}): the first
 * start of an engine writes the classes it loaded to an archive when it exits, and every later start
 * maps them instead of loading and verifying them again. Measured on this 2-core machine with the
 * three engines starting side by side (as every test JVM and {@code openrag up} start them):
 * OpenSearch ready in 7-8 s instead of 17, Neo4j in 9-10 s instead of 22 (docs/benchmarks.md,
 * "Start-up"); the test suite starts the three about twenty times.
 *
 * <p>The archives live under {@code ~/.cache/openrag/cds}, shared by every stack and test run of the
 * user. The JVM uses an archive only with the exact jars it was written from, and does not rewrite
 * one that no longer matches, so the file is named after the main class, the Java version and class
 * path, and the jars' sizes and modification times: a rebuild gets a new file and the stale one of
 * that class path is deleted (a running engine keeps the copy it mapped). The JVM checks an archive's checksums before mapping it ({@code VerifySharedSpaces}): one
 * damaged by a killed dump is ignored, never trusted. {@code OPENRAG_CDS=off} starts the engines
 * without archives.
 */
final class ClassDataSharing {

    private ClassDataSharing() {
    }

    static List<String> options(String mainClass, String classpath) {
        return "off".equalsIgnoreCase(System.getenv("OPENRAG_CDS")) ? List.of() : options(mainClass, classpath, directory());
    }

    /** The JVM options for an engine, its archive kept in {@code directory}. */
    static List<String> options(String mainClass, String classpath, Path directory) {
        List<Path> jars = Arrays.stream(classpath.split(File.pathSeparator)).map(Path::of).toList();
        if (!jars.stream().allMatch(Files::isRegularFile)) {
            return List.of(); // the JVM archives classes from jars only: a classes directory (a module's own tests) fails the dump
        }
        // one archive per main class and class path (the CLI's and the tests' jars lie in different places)
        String prefix = mainClass.substring(mainClass.lastIndexOf('.') + 1) + "-" + checksum(Runtime.version() + "|" + classpath) + "-";
        try {
            Files.createDirectories(directory);
            StringBuilder contents = new StringBuilder();
            for (Path jar : jars) {
                contents.append(Files.size(jar)).append('|').append(Files.getLastModifiedTime(jar).toMillis()).append('\n');
            }
            Path archive = directory.resolve(prefix + checksum(contents.toString()) + ".jsa");
            try (Stream<Path> files = Files.list(directory)) {
                for (Path stale : files.filter(file -> file.getFileName().toString().startsWith(prefix) && !file.equals(archive)).toList()) {
                    Files.deleteIfExists(stale);
                }
            }
            // the JVM reports every class it cannot archive (proxies, JFR events) as a warning in the engine's log
            return List.of("-XX:+AutoCreateSharedArchive", "-XX:SharedArchiveFile=" + archive, "-XX:+VerifySharedSpaces", "-Xlog:cds*=off");
        } catch (IOException | SecurityException e) {
            return List.of(); // a read-only home: start as before
        }
    }

    private static String checksum(String text) {
        CRC32 crc = new CRC32();
        crc.update(text.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().toHexDigits((int) crc.getValue());
    }

    private static Path directory() {
        String cache = System.getenv("XDG_CACHE_HOME");
        Path base = cache != null && !cache.isBlank() ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("openrag").resolve("cds");
    }
}
