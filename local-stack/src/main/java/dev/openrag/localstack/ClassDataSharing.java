package dev.openrag.localstack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * A class-data-sharing archive per engine (JDK 19+ {@code -XX:+AutoCreateSharedArchive}): the first
 * start of an engine writes the classes it loaded to an archive when it exits, and every later start
 * maps them instead of loading and verifying them again. Measured on this 2-core machine with the
 * three engines starting side by side (as every test JVM and {@code openrag up} start them):
 * OpenSearch ready in 7-10 s instead of 17, Neo4j in 9-11 s instead of 20-22 (docs/benchmarks.md,
 * "Start-up"); the test suite starts the three about twenty times.
 *
 * <p>The archives live under {@code ~/.cache/openrag/cds}, shared by every stack and test run of the
 * user. The JVM uses an archive only with the exact jars it was written from and does not rewrite
 * one that no longer matches, so the file is named after the main class, the Java version and class
 * path, and the jars' sizes and modification times: a rebuild gets a new file and the stale one of
 * that class path is deleted (a running engine keeps the copy it mapped). The JVM checks an
 * archive's checksums before mapping it ({@code VerifySharedSpaces}): one damaged by a killed dump is
 * ignored, never trusted (nor rewritten: deleting the folder is always safe). {@code OPENRAG_CDS=off}
 * starts the engines without archives.
 */
final class ClassDataSharing {

    /** What an engine JVM is given: the options naming its archive and the class path to run with. */
    record Launch(List<String> options, String classpath) {
    }

    private ClassDataSharing() {
    }

    static Launch of(String mainClass, String classpath) {
        return "off".equalsIgnoreCase(System.getenv("OPENRAG_CDS")) ? new Launch(List.of(), classpath) : of(mainClass, classpath, directory());
    }

    /**
     * The launch of an engine whose archive is kept in {@code directory}. The JVM archives classes
     * from jars only, so a classes directory on the class path (the engine modules and local-stack
     * as Maven's reactor hands them to the tests) is given to the engine as a jar of its contents,
     * kept beside the archives and rebuilt when a class changes.
     */
    static Launch of(String mainClass, String classpath, Path directory) {
        try {
            Files.createDirectories(directory);
            List<Path> jars = new ArrayList<>();
            for (String entry : classpath.split(File.pathSeparator)) {
                Path path = Path.of(entry);
                if (Files.isDirectory(path)) {
                    jars.add(jarOf(path, directory));
                } else if (Files.isRegularFile(path)) {
                    jars.add(path);
                } else {
                    return new Launch(List.of(), classpath); // a missing entry: the JVM would never match an archive
                }
            }
            String jarClasspath = String.join(File.pathSeparator, jars.stream().map(Path::toString).toList());
            // one archive per main class and class path (the CLI's and the tests' jars lie in different places)
            String prefix = mainClass.substring(mainClass.lastIndexOf('.') + 1) + "-" + checksum(Runtime.version() + "|" + jarClasspath) + "-";
            Path archive = directory.resolve(prefix + checksum(sizesAndTimes(jars)) + ".jsa");
            deleteStale(directory, prefix, archive);
            // the JVM reports every class it cannot archive (proxies, JFR events) as a warning in the engine's log
            return new Launch(List.of("-XX:+AutoCreateSharedArchive", "-XX:SharedArchiveFile=" + archive, "-XX:+VerifySharedSpaces",
                    "-Xlog:cds*=off"), jarClasspath);
        } catch (IOException | UncheckedIOException | SecurityException e) {
            return new Launch(List.of(), classpath); // a read-only home: start as before
        }
    }

    /** The directory's files as a jar under {@code directory}/jars, written once per version of its contents. */
    private static Path jarOf(Path classes, Path directory) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(classes)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        Path jars = Files.createDirectories(directory.resolve("jars"));
        String prefix = "classes-" + checksum(classes.toAbsolutePath().toString()) + "-";
        StringBuilder contents = new StringBuilder();
        for (Path file : files) {
            contents.append(classes.relativize(file)).append('|').append(sizesAndTimes(List.of(file)));
        }
        Path jar = jars.resolve(prefix + checksum(contents.toString()) + ".jar");
        if (!Files.exists(jar)) {
            Path partial = Files.createTempFile(jars, prefix, ".part");
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(partial))) {
                for (Path file : files) {
                    out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace(File.separatorChar, '/')));
                    Files.copy(file, out);
                    out.closeEntry();
                }
            }
            Files.move(partial, jar, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        deleteStale(jars, prefix, jar);
        return jar;
    }

    private static String sizesAndTimes(List<Path> files) throws IOException {
        StringBuilder text = new StringBuilder();
        for (Path file : files) {
            text.append(Files.size(file)).append('|').append(Files.getLastModifiedTime(file).toMillis()).append('\n');
        }
        return text.toString();
    }

    /**
     * Files of an older version (a running engine keeps what it opened); not another start's
     * {@code .part} file, being written while the engines start side by side.
     */
    private static void deleteStale(Path directory, String prefix, Path current) throws IOException {
        String extension = current.getFileName().toString().substring(current.getFileName().toString().lastIndexOf('.'));
        try (Stream<Path> files = Files.list(directory)) {
            for (Path stale : files.filter(file -> file.getFileName().toString().startsWith(prefix)
                    && file.getFileName().toString().endsWith(extension) && !file.equals(current)).toList()) {
                Files.deleteIfExists(stale);
            }
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
