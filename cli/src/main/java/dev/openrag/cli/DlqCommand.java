package dev.openrag.cli;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code openrag dlq list|redrive}: the dead letters with their reasons, and sending them back as a new job. */
@Command(name = "dlq", description = "Dead letters: list them with reasons, or redrive them into the pipeline as a new job.",
        subcommands = {DlqCommand.List.class, DlqCommand.Redrive.class})
class DlqCommand implements Runnable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The filters both subcommands take, and where the ingest API is. */
    static class Filters {
        @Option(names = {"-c", "--collection"}, description = "only this collection")
        String collection;

        @Option(names = "--stage", description = "only letters from this stage (parse, embed, sink-opensearch, ...)")
        String stage;

        @Option(names = "--job", description = "only letters of this job")
        String jobId;

        @Option(names = "--document", description = "only letters of this document")
        String documentId;

        @Option(names = "--url", defaultValue = "${env:OPENRAG_INGEST_URL:-http://127.0.0.1:8081}", description = "ingest-pipeline URL")
        String url;

        Map<String, String> asMap() {
            Map<String, String> filters = new LinkedHashMap<>();
            if (collection != null) {
                filters.put("collection", collection);
            }
            if (stage != null) {
                filters.put("stage", stage);
            }
            if (jobId != null) {
                filters.put("jobId", jobId);
            }
            if (documentId != null) {
                filters.put("documentId", documentId);
            }
            return filters;
        }
    }

    @Override
    public void run() {
        System.out.println("usage: openrag dlq list|redrive [--collection C] [--stage S] [--job J] [--document D]");
    }

    @Command(name = "list", description = "Dead letters, newest first: when, stage, document, reason.")
    static class List implements Callable<Integer> {

        @Mixin
        Filters filters;

        @Option(names = "--limit", defaultValue = "100", description = "at most this many (1-1000)")
        int limit;

        @Override
        public Integer call() {
            StringJoiner query = new StringJoiner("&", "/api/dlq?", "");
            filters.asMap().forEach((key, value) -> query.add(key + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8)));
            query.add("limit=" + limit);
            JsonNode listing = new ApiClient(filters.url).get(query.toString());
            for (JsonNode letter : listing.path("deadLetters")) {
                System.out.printf(Locale.ROOT, "%s  %-16s %-14s %s  %s%n", letter.path("at").asText(), letter.path("stage").asText(),
                        letter.path("collection").asText(), letter.path("documentId").asText(), letter.path("reason").asText());
            }
            System.out.println(listing.path("count").asInt() + " dead letter(s)");
            return 0;
        }
    }

    @Command(name = "redrive", description = "Send dead letters back to the topics they came from as a new job, and follow it.")
    static class Redrive implements Callable<Integer> {

        @Mixin
        Filters filters;

        @Option(names = "--all", description = "redrive every dead letter (needed when no filter is given)")
        boolean all;

        @Override
        public Integer call() throws Exception {
            Map<String, Object> request = new LinkedHashMap<>(filters.asMap());
            if (all) {
                request.put("all", true);
            }
            ApiClient ingest = new ApiClient(filters.url);
            JsonNode answer = ingest.postJson("/api/dlq/redrive", JSON.writeValueAsString(request));
            answer.path("skipped").forEach(skipped -> System.out.println("  skipped: " + skipped.asText()));
            if (answer.path("redriven").asInt() == 0) {
                System.out.println("nothing to redrive");
                return 0;
            }
            System.out.println("redriven " + answer.path("redriven").asInt() + " document(s) as job " + answer.path("jobId").asText());
            JsonNode job = JobProgress.follow(ingest, answer.path("jobId").asText(), System.out);
            return "completed".equals(job.path("state").asText()) ? 0 : 1;
        }
    }
}
