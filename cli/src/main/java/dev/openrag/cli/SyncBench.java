package dev.openrag.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code openrag bench sync}: a folder of {@code --files} generated Markdown files (in 100 subfolders, in the temp
 * folder) kept in a fresh collection through {@code /api/sources}: the first sync (every file through the pipeline),
 * an unchanged sync (read, hash and compare only), and a sync after editing 1% of the files. Each time is the run's,
 * from the request to the end of its job. Last line:
 * {@code bench sync files=N first_s=X unchanged_s=Y changed_s=Z}.
 */
final class SyncBench {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ApiClient ingest;
    private final int files;

    SyncBench(String url, int files) {
        this.ingest = new ApiClient(url);
        this.files = files;
    }

    int run() throws Exception {
        Path folder = Files.createTempDirectory("openrag-bench-sync-");
        try {
            SyntheticText text = new SyntheticText(62);
            for (int i = 0; i < files; i++) {
                write(folder, i, text.sentence() + " " + text.sentence() + " File " + i + ".");
            }
            String collection = "bench-sync-" + System.currentTimeMillis();
            JsonNode source = ingest.postJson("/api/sources", JSON.writeValueAsString(Map.of("type", "folder",
                    "location", folder.toString(), "collection", collection)));
            String id = source.path("id").asText();
            System.out.printf("bench sync: %d files in %s, collection %s%n", files, folder, collection);
            double first = timed(id, "first");
            double unchanged = timed(id, "unchanged");
            for (int i = 0; i < files; i += 100) {
                write(folder, i, text.sentence() + " Edited " + i + ".");
            }
            double changed = timed(id, "changed 1%");
            ingest.delete("/api/sources/" + id + "?deleteDocuments=true");
            System.out.printf(Locale.ROOT, "bench sync files=%d first_s=%.1f unchanged_s=%.2f changed_s=%.1f%n", files, first, unchanged, changed);
            return 0;
        } finally {
            try (Stream<Path> walk = Files.walk(folder)) {
                walk.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private static void write(Path folder, int index, String sentence) throws IOException {
        Path file = folder.resolve("part-" + (index % 100)).resolve("note-" + index + ".md");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "# Note " + index + "\n\n" + sentence + "\n");
    }

    /** Runs the source and waits for the run (and its job) to end; prints and returns its seconds. */
    private double timed(String id, String label) throws InterruptedException {
        long start = System.nanoTime();
        String runId = ingest.postJson("/api/sources/" + id + "/run", "{}").path("runId").asText();
        JsonNode run;
        do {
            Thread.sleep(100);
            run = ingest.get("/api/sources/" + id).path("lastRun");
        } while (!runId.equals(run.path("runId").asText()) || "running".equals(run.path("state").asText()));
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "  %s sync: %.2f s (%s: added=%d changed=%d deleted=%d unchanged=%d)%n", label, seconds,
                run.path("state").asText(), run.path("added").asInt(), run.path("changed").asInt(), run.path("deleted").asInt(),
                run.path("unchanged").asInt());
        return seconds;
    }
}
