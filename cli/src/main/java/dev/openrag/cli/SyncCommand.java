package dev.openrag.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code openrag sync SOURCE}: keeps a collection equal to a folder or git repository. The server keeps the source
 * ({@code POST /api/sources}; the same SOURCE and collection again reuse it), the command runs it, shows the job's
 * progress and ends with {@code sync source=ID added=N changed=N deleted=N unchanged=N}. With {@code --watch} the
 * server syncs the folder on every change, and the command prints a line per sync until it is stopped (which stops
 * the watch).
 */
@Command(name = "sync", description = "Keep a collection equal to a folder or git repository: edits replace, deletions delete, "
        + "renames move; once, or watching.")
class SyncCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Parameters(index = "0", paramLabel = "SOURCE", description = "a folder, a local git repository, or a git repository's https URL")
    String source;

    @Option(names = {"-c", "--collection"}, defaultValue = "default", description = "target collection (default: ${DEFAULT-VALUE})")
    String collection;

    @Option(names = "--watch", description = "keep syncing the folder within seconds of each change, until stopped")
    boolean watch;

    @Option(names = "--include", description = "glob a file must match (repeatable; '*.md' at any depth, 'docs/**')")
    List<String> include;

    @Option(names = "--exclude", description = "glob that leaves files out (repeatable)")
    List<String> exclude;

    @Option(names = "--branch", description = "git: the branch to follow (default: the repository's default branch)")
    String branch;

    @Option(names = "--type", description = "folder or git (default: git for a URL or a folder holding .git, else folder)")
    String type;

    @Option(names = "--schedule", description = "also sync on this interval (30m, 1h) or cron expression, on the server")
    String schedule;

    @Option(names = "--allow-mass-delete", description = "let this run delete more than half of the source's documents")
    boolean allowMassDelete;

    @Option(names = "--meta", paramLabel = "KEY=VALUE", description = "metadata for every document of the source (repeatable): a number written as one "
            + "(2026, 2.5; not 02139 or 1.10) stays a number, an ISO-8601 date a date, a key given twice a list of strings; changing only it updates the documents without embedding them again")
    List<String> meta;

    @Option(names = "--dry-run", description = "show what a sync would add, change and delete, changing nothing")
    boolean dryRun;

    @Option(names = "--url", defaultValue = "${env:OPENRAG_INGEST_URL:-http://127.0.0.1:8081}", description = "ingest-pipeline URL")
    String url;

    @Override
    public Integer call() throws Exception {
        Map<String, Object> request = request(watch);
        ApiClient ingest = new ApiClient(url);
        JsonNode created = ingest.postJson("/api/sources", JSON.writeValueAsString(request));
        String id = created.path("id").asText();
        System.out.printf(Locale.ROOT, "syncing %s %s into collection '%s' (source %s)%n", created.path("type").asText(),
                created.path("location").asText(), created.path("collection").asText(), id);
        if (dryRun) {
            return report(id, ingest.postJson("/api/sources/" + id + "/run?dryRun=true", "{}"));
        }
        String runId = ingest.postJson("/api/sources/" + id + "/run" + (allowMassDelete ? "?allowMassDelete=true" : ""), "{}")
                .path("runId").asText();
        JsonNode run = follow(ingest, id, runId);
        int exit = report(id, run);
        if (!watch) {
            return exit;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                ingest.postJson("/api/sources", JSON.writeValueAsString(request(false)));
                System.out.println("watch stopped");
            } catch (Exception e) {
                System.err.println("openrag: could not stop the watch of source " + id + ": " + e.getMessage());
            }
        }));
        System.out.println("watching " + created.path("location").asText() + " (Ctrl-C stops)");
        String last = run.path("runId").asText();
        while (true) {
            Thread.sleep(1000);
            JsonNode now = ingest.get("/api/sources/" + id).path("lastRun");
            String state = now.path("state").asText();
            if (!now.path("runId").asText().equals(last) && !"running".equals(state) && !"queued".equals(state)) {
                last = now.path("runId").asText();
                report(id, now);
            }
        }
    }

    private Map<String, Object> request(boolean watching) throws IOException {
        boolean url = source.matches("(?i)[a-z][a-z0-9+.-]*://.*");
        String location = url ? source : Path.of(source).toAbsolutePath().normalize().toString();
        String kind = type != null ? type
                : url || branch != null || Files.exists(Path.of(location, ".git")) ? "git" : "folder";
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("type", kind);
        request.put("location", location);
        request.put("collection", collection);
        request.put("include", include == null ? List.of() : include);
        request.put("exclude", exclude == null ? List.of() : exclude);
        if (branch != null) {
            request.put("branch", branch);
        }
        if (schedule != null) {
            request.put("schedule", schedule);
        }
        request.put("watch", watching);
        Map<String, Object> metadata = MetaOptions.map(meta);
        if (metadata != null) {
            request.put("metadata", metadata);
        }
        return request;
    }

    /** Waits for the run to end, showing its job's progress once it has one; returns the finished run. */
    private static JsonNode follow(ApiClient ingest, String id, String runId) throws InterruptedException {
        boolean followed = false;
        while (true) {
            // the run by its own id: runs asked for meanwhile wait in order, so the source's last run may be another one
            JsonNode run = runId.isEmpty() ? ingest.get("/api/sources/" + id).path("lastRun")
                    : ingest.get("/api/sources/" + id + "/runs/" + runId);
            if (!followed && run.hasNonNull("jobId")) {
                JobProgress.follow(ingest, run.path("jobId").asText(), System.out);
                followed = true;
            }
            String state = run.path("state").asText();
            if (run.has("state") && !"running".equals(state) && !"queued".equals(state)) {
                return run;
            }
            Thread.sleep(300);
        }
    }

    /** Prints a run's refused files, its error if any, and the summary line; returns the exit code. */
    private static int report(String id, JsonNode run) {
        run.path("refused").forEach(file -> System.out.println("  refused " + file.path("path").asText() + ": " + file.path("reason").asText()));
        String state = run.path("state").asText();
        if (run.hasNonNull("error")) {
            System.out.println(state + ": " + run.path("error").asText());
        } else if ("dry-run".equals(state)) {
            System.out.println("dry run: nothing was changed; a sync now would do this");
        }
        System.out.printf(Locale.ROOT, "sync source=%s added=%d changed=%d deleted=%d unchanged=%d%n", id, run.path("added").asInt(),
                run.path("changed").asInt(), run.path("deleted").asInt(), run.path("unchanged").asInt());
        return ("completed".equals(state) || "dry-run".equals(state)) && run.path("refused").isEmpty() ? 0 : 1;
    }
}
