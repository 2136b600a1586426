package dev.openrag.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The sample collection {@code ./openrag up} ingests on a first start: the documentation a newcomer
 * reads, that is the README, docs/ and each module's README (Markdown up to two folders down, none
 * under a hidden folder or a build output). One definition, so what the first-run test judges is what
 * {@code up} ingests.
 */
public final class SampleDocuments {

    public static final String COLLECTION = "openrag-docs";
    /** The search {@code up} prints and the README shows, to try on the sample. */
    public static final String SUGGESTED_QUERY = "how do I run the tests?";

    private SampleDocuments() {
    }

    /** The sample's files under the checkout {@code root}, sorted. */
    public static List<Path> files(Path root) {
        try (Stream<Path> found = Files.walk(root, 3)) {
            return found.filter(path -> path.getFileName().toString().endsWith(".md"))
                    .filter(path -> {
                        String relative = root.relativize(path).toString().replace('\\', '/');
                        return !relative.startsWith(".") && !relative.contains("/.") && !("/" + relative).contains("/target/");
                    })
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
