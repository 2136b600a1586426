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
 * folder) as a source of a fresh collection. Timed: the first run until its documents are published and recorded
 * (the pipeline then ingests them for as long as it takes: the collection is left for it); then, on that recorded
 * state, what an unchanged sync costs (read and hash every file, load the recorded state, compare: a dry run, which
 * does exactly that and publishes nothing, as an unchanged run publishes nothing), the median of 3; then a dry run
 * after editing 1% of the files. Last line: {@code bench sync files=N publish_s=X unchanged_s=Y changed_s=Z}.
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
            System.out.printf(Locale.ROOT, "bench sync: %d files in %s, collection %s%n", files, folder, collection);
            long started = System.nanoTime();
            String runId = ingest.postJson("/api/sources/" + id + "/run", "{}").path("runId").asText();
            JsonNode run;
            do {
                Thread.sleep(100);
                run = ingest.get("/api/sources/" + id).path("lastRun");
            } while (!runId.equals(run.path("runId").asText()) || (run.path("jobId").isMissingNode() && "running".equals(run.path("state").asText())));
            double publish = (System.nanoTime() - started) / 1e9;
            System.out.printf(Locale.ROOT, "  first sync: %d files published and recorded in %.1f s (job %s ingests them)%n",
                    run.path("added").asInt(), publish, run.path("jobId").asText());
            double[] unchanged = new double[3];
            for (int i = 0; i < unchanged.length; i++) {
                unchanged[i] = dryRun(id, "unchanged", files);
            }
            java.util.Arrays.sort(unchanged);
            for (int i = 0; i < files; i += 100) {
                write(folder, i, text.sentence() + " Edited " + i + ".");
            }
            double changed = dryRun(id, "1% edited", (files + 99) / 100);
            System.out.println("  the collection is left to the pipeline: ./openrag status shows its lag; delete it with "
                    + "curl -X DELETE '" + "http://127.0.0.1:8081/api/sources/" + id + "?deleteDocuments=true' once it is ingested");
            System.out.printf(Locale.ROOT, "bench sync files=%d publish_s=%.1f unchanged_s=%.2f changed_s=%.2f%n", files, publish,
                    unchanged[1], changed);
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

    /** A dry run, timed; checks it found what the bench expects ({@code expected} changed files, none added or deleted). */
    private double dryRun(String id, String label, int expected) {
        long start = System.nanoTime();
        JsonNode run = ingest.postJson("/api/sources/" + id + "/run?dryRun=true", "{}");
        double seconds = (System.nanoTime() - start) / 1e9;
        int found = "unchanged".equals(label) ? run.path("unchanged").asInt() : run.path("changed").asInt();
        System.out.printf(Locale.ROOT, "  %s sync (dry run): %.2f s (%s: added=%d changed=%d deleted=%d unchanged=%d)%n", label, seconds,
                run.path("state").asText(), run.path("added").asInt(), run.path("changed").asInt(), run.path("deleted").asInt(),
                run.path("unchanged").asInt());
        if (found != expected || run.path("added").asInt() != 0 || run.path("deleted").asInt() != 0) {
            throw new IllegalStateException("the " + label + " sync found other changes than the bench made: " + run);
        }
        return seconds;
    }
}
