package dev.openrag.cli;

import java.util.Locale;
import java.util.concurrent.Callable;

import dev.openrag.localstack.ComponentSpec;
import dev.openrag.localstack.ComponentStatus;
import picocli.CommandLine.Command;

/**
 * One line per component (name, state, pid, port), with the log tail of any that failed; then a
 * {@code waiting} line per ingest stage paused for an engine (which, why, since when) and a
 * {@code lag} line per stage.
 */
@Command(name = "status", description = "Show each component's state, pid, port and health. Exit code 3 if any failed.")
class StatusCommand implements Callable<Integer> {

    static final int SOME_FAILED = 3;

    @Override
    public Integer call() {
        Stack stack = new Stack();
        System.out.printf(Locale.ROOT, "%-18s %-10s %-8s %-6s%n", "COMPONENT", "STATE", "PID", "PORT");
        boolean failed = false;
        StringBuilder tails = new StringBuilder();
        Integer ingestPort = null;
        for (ComponentSpec spec : stack.allSpecs()) {
            ComponentStatus status = stack.engines.supervisor().status(spec);
            if (spec.name().equals(Stack.App.INGEST_PIPELINE.module)
                    && (status.state() == ComponentStatus.State.RUNNING || status.state() == ComponentStatus.State.UNHEALTHY)) {
                ingestPort = spec.port();
            }
            System.out.printf(Locale.ROOT, "%-18s %-10s %-8s %-6d%n", status.name(), status.state().name().toLowerCase(Locale.ROOT),
                    status.pid() == null ? "-" : status.pid(), status.port());
            if (status.state() == ComponentStatus.State.FAILED || status.state() == ComponentStatus.State.UNHEALTHY) {
                failed |= status.state() == ComponentStatus.State.FAILED;
                tails.append(String.format(Locale.ROOT, "%n%s is %s; last lines of %s:%n", status.name(),
                        status.state().name().toLowerCase(Locale.ROOT), stack.engines.supervisor().logFile(status.name())));
                status.logTail().forEach(line -> tails.append("  ").append(line).append('\n'));
            }
        }
        System.out.print(tails);
        // only this home's ingest app: whatever else answers on its port (another checkout's stack) is not this stack's
        if (ingestPort != null) {
            String ingest = "http://127.0.0.1:" + ingestPort;
            fetch(ingest + "/q/health/ready").map(StatusCommand::formatWaits).filter(waits -> !waits.isEmpty()).ifPresent(System.out::println);
            printLag(ingest + "/q/metrics");
        }
        return failed ? SOME_FAILED : 0;
    }

    private static final java.util.regex.Pattern LAG_LINE =
            java.util.regex.Pattern.compile("^openrag_stage_lag_records\\{[^}]*stage=\"([^\"]+)\"[^}]*}\\s+([0-9.eE+-]+)");

    /**
     * A {@code lag} line per stage: the records of its input topic its consumer group has not committed
     * ({@code openrag_stage_lag_records}, read by the ingest app from the broker). Nothing when the ingest
     * app does not answer.
     */
    static void printLag(String metricsUrl) {
        fetch(metricsUrl).map(StatusCommand::formatLag).ifPresent(System.out::println);
    }

    /** The body of a GET answered 200, or 503 (readiness DOWN still says why); empty when the app does not answer. */
    private static java.util.Optional<String> fetch(String url) {
        try {
            var http = java.net.http.HttpClient.newBuilder().connectTimeout(java.time.Duration.ofSeconds(2)).build();
            var response = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
                    .timeout(java.time.Duration.ofSeconds(3)).GET().build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 || response.statusCode() == 503 ? java.util.Optional.of(response.body())
                    : java.util.Optional.empty();
        } catch (java.io.IOException e) {
            return java.util.Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        }
    }

    /**
     * A {@code waiting} line per stage that the ingest app's readiness check {@code ingest-stages} reports
     * (an engine unreachable or refusing writes, or a stage stuck), a header first; empty when none is,
     * or when the answer is not a health report.
     */
    static String formatWaits(String health) {
        com.fasterxml.jackson.databind.JsonNode checks;
        try {
            checks = new com.fasterxml.jackson.databind.ObjectMapper().readTree(health).path("checks");
        } catch (java.io.IOException e) {
            return "";
        }
        StringBuilder lines = new StringBuilder();
        for (var check : checks) {
            if (check.path("name").asText().equals("ingest-stages")) {
                check.path("data").properties().forEach(stage -> lines.append(String.format(Locale.ROOT, "%-18s %-18s %s%n", "waiting", stage.getKey(),
                        stage.getValue().asText())));
            }
        }
        return lines.isEmpty() ? "" : String.format(Locale.ROOT, "%n%-18s %-18s %s%n", "WAIT", "STAGE", "REASON") + lines.toString().stripTrailing();
    }

    /** The lag lines of a Prometheus text exposition, a header first. */
    static String formatLag(String metrics) {
        StringBuilder lines = new StringBuilder(String.format(Locale.ROOT, "%n%-18s %-18s %s%n", "LAG", "STAGE", "RECORDS"));
        metrics.lines().map(LAG_LINE::matcher).filter(java.util.regex.Matcher::find).forEach(line ->
                lines.append(String.format(Locale.ROOT, "%-18s %-18s %d%n", "lag", line.group(1), (long) Double.parseDouble(line.group(2)))));
        return lines.toString().stripTrailing();
    }
}
