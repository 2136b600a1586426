package dev.openrag.cli;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.openrag.localstack.Engine;
import dev.openrag.localstack.LocalStackException;
import dev.openrag.localstack.SampleDocuments;
import picocli.CommandLine.Command;

/** Starts the engines, then the apps, waits until every one is healthy and prints the URLs. */
@Command(name = "up", description = "Start Kafka, Neo4j, OpenSearch and the three apps; wait until healthy; "
        + "on first start, ingest OpenRAG's own documentation as a sample collection.")
class UpCommand implements Runnable {

    /** The sample collection: OpenRAG's own README and docs, searchable right after the first `up`. */
    static final String SAMPLE_COLLECTION = SampleDocuments.COLLECTION;

    @picocli.CommandLine.Option(names = "--no-sample", description = "do not ingest the sample documents")
    boolean noSample;

    @picocli.CommandLine.Option(names = "--cluster", description = "three Kafka brokers (replication 3, min in-sync 2), two OpenSearch "
            + "nodes (one replica), two instances of query-api and ingest-pipeline; remembered for this home")
    boolean cluster;

    @Override
    public void run() {
        if (cluster) {
            Stack.chooseCluster(dev.openrag.localstack.StackConfig.defaults().home());
        }
        Stack stack = new Stack();
        long began = System.nanoTime();
        System.out.println("OpenRAG home: " + stack.config.home() + (stack.cluster() ? " (cluster profile)" : ""));
        System.out.println(MemoryPlan.describe(stack.allSpecs()));
        System.out.println("starting engines (kafka, neo4j, opensearch) ...");
        stack.engines.start(List.of(Engine.values()), line -> System.out.println("  " + line));

        System.out.println("starting apps (query-api, ingest-pipeline, mcp-memory) ...");
        // a virtual thread each: the common pool has a single worker on a 2-core machine
        var executor = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
        List<CompletableFuture<Void>> apps = stack.instances().stream()
                .map(instance -> CompletableFuture.runAsync(() -> {
                    long appBegan = System.nanoTime();
                    boolean started = stack.engines.supervisor().start(stack.appSpec(instance));
                    System.out.printf(Locale.ROOT, "  %-18s %s on %s%s%n", instance.name(), started ? "ready" : "already running",
                            stack.url(instance), started ? String.format(Locale.ROOT, " (%.1f s)", (System.nanoTime() - appBegan) / 1e9) : "");
                }, executor))
                .toList();
        try {
            CompletableFuture.allOf(apps.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof LocalStackException problem ? problem : new LocalStackException(e.getCause().toString());
        } finally {
            executor.shutdown();
        }

        if (!noSample) {
            ingestSample(stack);
        }
        System.out.printf(Locale.ROOT, "%nOpenRAG is up in %.1f s%n", (System.nanoTime() - began) / 1e9);
        System.out.println("  query API        " + stack.url(Stack.App.QUERY_API) + "   (OpenAPI UI: /q/swagger-ui)");
        System.out.println("  ingest pipeline  " + stack.url(Stack.App.INGEST_PIPELINE));
        if (stack.cluster()) {
            System.out.println("  second instances " + stack.url(new Stack.Instance(Stack.App.QUERY_API, 1)) + " (query API), "
                    + stack.url(new Stack.Instance(Stack.App.INGEST_PIPELINE, 1)) + " (ingest)");
        }
        System.out.println("  MCP memory       " + stack.url(Stack.App.MCP_MEMORY) + "/mcp   (SSE: /mcp/sse)");
        System.out.println("  Kafka            " + stack.config.kafkaBootstrapServers());
        System.out.println("  Neo4j (Bolt)     " + stack.config.neo4jUri());
        System.out.println("  OpenSearch       " + stack.config.openSearchUrls());
        boolean authOn = new ApiClient(stack.url(Stack.App.QUERY_API)).get("/api/auth").path("enabled").asBoolean();
        System.out.println("  auth             " + (authOn
                ? "on: API keys required (OPENRAG_AUTH_ADMIN_KEY is the admin key; ./openrag keys create ...)"
                : "off: listening on 127.0.0.1 only, every local caller may do everything (OPENRAG_AUTH_ADMIN_KEY turns it on)"));
        System.out.println("Logs: ./openrag logs NAME   Stop: ./openrag down");
        if (!noSample) {
            System.out.println("Try:  curl -s " + stack.url(Stack.App.QUERY_API) + "/api/search -H 'Content-Type: application/json' "
                    + "-d '{\"query\": \"" + SampleDocuments.SUGGESTED_QUERY + "\", \"collection\": \"" + SAMPLE_COLLECTION + "\", \"k\": 3}'");
        }
    }

    /** First start only (the collection is empty): ingest {@link SampleDocuments} through the pipeline. */
    private static void ingestSample(Stack stack) {
        ApiClient ingest = new ApiClient(stack.url(Stack.App.INGEST_PIPELINE));
        if (ingest.get("/api/collections/" + SAMPLE_COLLECTION + "/stats").path("documents").asLong() > 0) {
            return;
        }
        List<java.nio.file.Path> files;
        try {
            files = SampleDocuments.files(stack.root);
        } catch (java.io.UncheckedIOException e) {
            System.out.println("  (sample documents skipped: " + e.getCause().getMessage() + ")");
            return;
        }
        if (files.isEmpty()) {
            return;
        }
        System.out.printf(Locale.ROOT, "ingesting a sample: %d Markdown files of OpenRAG itself into collection '%s' ...%n", files.size(), SAMPLE_COLLECTION);
        try {
            var accepted = ingest.postFiles("/api/documents", files, stack.root, SAMPLE_COLLECTION);
            var status = JobProgress.follow(ingest, accepted.path("jobId").asText(), System.out);
            System.out.printf(Locale.ROOT, "  sample %s: %d documents, %d chunks%n", status.path("state").asText(),
                    status.path("documents").path("done").asInt(), status.path("stages").path("sink-opensearch").path("chunks").asInt());
        } catch (java.io.IOException e) {
            System.out.println("  (sample documents skipped: " + e.getMessage() + ")");
        }
    }
}
