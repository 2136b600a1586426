package dev.openrag.cli;

import java.io.PrintStream;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

/** Polls an ingest job and draws a progress bar until the job finishes; returns the final status. */
final class JobProgress {

    private static final int WIDTH = 30;

    private JobProgress() {
    }

    static JsonNode follow(ApiClient ingest, String jobId, PrintStream out) {
        JsonNode status;
        String shown = "";
        boolean terminal = System.console() != null;
        while (true) {
            status = ingest.get("/api/jobs/" + jobId);
            int total = status.path("documents").path("total").asInt();
            int done = status.path("documents").path("done").asInt();
            int failed = status.path("documents").path("failed").asInt();
            int filled = total == 0 ? 0 : (done + failed) * WIDTH / total;
            String line = String.format(Locale.ROOT, "  [%s%s] %d/%d documents, %d failed, %d chunks indexed", "#".repeat(filled),
                    ".".repeat(WIDTH - filled), done + failed, total, failed,
                    status.path("stages").path("sink-opensearch").path("chunks").asInt()) + waiting(status);
            if (!line.equals(shown)) {
                // redraw in place on a terminal; one line per change when piped to a file or CI log
                out.print(terminal ? "\r" + line + "   " : line + "\n");
                shown = line;
            }
            if (!"running".equals(status.path("state").asText())) {
                if (terminal) {
                    out.println();
                }
                return status;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return status;
            }
        }
    }

    /** While a stage waits for an engine, say so: the job is paused, not stuck. */
    private static String waiting(JsonNode status) {
        StringBuilder waits = new StringBuilder();
        status.path("stages").properties().forEach(stage -> {
            if (stage.getValue().hasNonNull("waiting")) {
                waits.append(waits.isEmpty() ? " (waiting: " : "; ").append(stage.getKey()).append(": ").append(stage.getValue().path("waiting").asText());
            }
        });
        return waits.isEmpty() ? "" : waits.append(')').toString();
    }
}
