package dev.openrag.cli;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Uploads files, folders (recursively) and globs to the ingest pipeline and follows the job. */
@Command(name = "ingest", description = "Ingest files, folders (recursively) or globs; shows progress and a summary.")
class IngestCommand implements Callable<Integer> {

    /** Files per upload request: keeps each multipart body well under the server's size limit. */
    private static final long BATCH_BYTES = 32L * 1024 * 1024;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "files, folders or glob patterns such as 'docs/**/*.md'")
    List<String> paths;

    @Option(names = {"-c", "--collection"}, defaultValue = "default", description = "target collection (default: ${DEFAULT-VALUE})")
    String collection;

    @Option(names = "--url", defaultValue = "${env:OPENRAG_INGEST_URL:-http://127.0.0.1:8081}", description = "ingest-pipeline URL")
    String url;

    @Option(names = "--meta", paramLabel = "KEY=VALUE", description = "metadata for every file (repeatable): a number written as one "
            + "(2026, 2.5; not 02139 or 1.10) stays a number, an ISO-8601 date a date, a key given twice a list of strings")
    List<String> meta;

    @Override
    public Integer call() throws IOException {
        List<Path> files = expand(paths);
        if (files.isEmpty()) {
            System.err.println("openrag: no files found in " + String.join(" ", paths));
            return 2;
        }
        System.out.printf(Locale.ROOT, "ingesting %d file(s) into collection '%s'%n", files.size(), collection);
        ApiClient ingest = new ApiClient(url);
        int done = 0;
        int failed = 0;
        int chunks = 0;
        List<String> failures = new ArrayList<>();
        Usage usage = new Usage();
        String metadata = MetaOptions.json(meta);
        for (List<Path> batch : batches(files)) {
            JsonNode accepted = ingest.postFiles("/api/documents", batch, Path.of(""), collection, metadata);
            JsonNode status = JobProgress.follow(ingest, accepted.path("jobId").asText(), System.out);
            done += status.path("documents").path("done").asInt();
            failed += status.path("documents").path("failed").asInt();
            chunks += status.path("stages").path("sink-opensearch").path("chunks").asInt();
            usage.add(status.path("usage"));
            status.path("failures").forEach(f -> failures.add(f.path("source").asText(f.path("documentId").asText())
                    + " (" + f.path("stage").asText() + "): " + f.path("reason").asText()));
        }
        System.out.printf(Locale.ROOT, "done: %d document(s), %d chunk(s) indexed, %d failed%n", done, chunks, failed);
        if (usage.calls > 0) {
            System.out.printf(Locale.ROOT, "llm: %d call(s), %d token(s) in (%d cached), %d out, cost %s%n", usage.calls, usage.input,
                    usage.cached, usage.output, usage.unknownCost ? "unknown (a model has no price)" : String.format(Locale.ROOT, "%.4f", usage.cost));
        }
        failures.forEach(failure -> System.out.println("  failed " + failure));
        return failed == 0 ? 0 : 1;
    }

    /** The LLM tokens and cost of the jobs, summed ({@code usage} of each job's status). */
    private static final class Usage {
        long calls;
        long input;
        long cached;
        long output;
        double cost;
        boolean unknownCost;

        void add(JsonNode usage) {
            if (usage.isMissingNode() || usage.isNull()) {
                return;
            }
            calls += usage.path("calls").asLong();
            input += usage.path("inputTokens").asLong();
            cached += usage.path("cachedInputTokens").asLong();
            output += usage.path("outputTokens").asLong();
            if (usage.path("cost").isNumber()) {
                cost += usage.path("cost").asDouble();
            } else {
                unknownCost = true;
            }
        }
    }

    static List<Path> expand(List<String> arguments) throws IOException {
        List<Path> files = new ArrayList<>();
        for (String argument : arguments) {
            Path path = Path.of(argument);
            if (Files.isRegularFile(path)) {
                files.add(path);
            } else if (Files.isDirectory(path)) {
                try (Stream<Path> walk = Files.walk(path)) {
                    walk.filter(Files::isRegularFile).filter(p -> !isHidden(path.relativize(p))).sorted().forEach(files::add);
                }
            } else if (argument.matches(".*[*?\\[{].*")) {
                files.addAll(glob(argument));
            } else {
                throw new IllegalArgumentException("no such file or folder: " + argument);
            }
        }
        return files;
    }

    /** Files matching a glob; the walk starts at the folder part before the first wildcard. */
    private static List<Path> glob(String pattern) throws IOException {
        int slash = pattern.substring(0, pattern.replaceAll("[*?\\[{].*$", "").length()).lastIndexOf('/');
        Path base = slash < 0 ? Path.of(".") : Path.of(pattern.substring(0, slash + 1));
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        try (Stream<Path> walk = Files.walk(base)) {
            return walk.filter(Files::isRegularFile)
                    .filter(p -> matcher.matches(slash < 0 ? base.relativize(p) : p))
                    .sorted().toList();
        }
    }

    private static boolean isHidden(Path relative) {
        for (Path part : relative) {
            if (part.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    static List<List<Path>> batches(List<Path> files) throws IOException {
        List<List<Path>> batches = new ArrayList<>();
        List<Path> current = new ArrayList<>();
        long bytes = 0;
        for (Path file : files) {
            long size = Files.size(file);
            if (!current.isEmpty() && bytes + size > BATCH_BYTES) {
                batches.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(file);
            bytes += size;
        }
        batches.add(current);
        return batches;
    }
}
