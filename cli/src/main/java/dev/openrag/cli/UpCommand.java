package dev.openrag.cli;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.openrag.localstack.Engine;
import dev.openrag.localstack.LocalStackException;
import picocli.CommandLine.Command;

/** Starts the engines, then the apps, waits until every one is healthy and prints the URLs. */
@Command(name = "up", description = "Start Kafka, Neo4j, OpenSearch and the three apps; wait until healthy.")
class UpCommand implements Runnable {

    @Override
    public void run() {
        Stack stack = new Stack();
        long began = System.nanoTime();
        System.out.println("OpenRAG home: " + stack.config.home());
        System.out.println("starting engines (kafka, neo4j, opensearch) ...");
        stack.engines.start(List.of(Engine.values()), line -> System.out.println("  " + line));

        System.out.println("starting apps (query-api, ingest-pipeline, mcp-memory) ...");
        List<CompletableFuture<Void>> apps = java.util.Arrays.stream(Stack.App.values())
                .map(app -> CompletableFuture.runAsync(() -> {
                    long appBegan = System.nanoTime();
                    boolean started = stack.engines.supervisor().start(stack.appSpec(app));
                    System.out.printf("  %-16s %s on %s%s%n", app.module, started ? "ready" : "already running",
                            stack.url(app), started ? String.format(" (%.1f s)", (System.nanoTime() - appBegan) / 1e9) : "");
                }))
                .toList();
        try {
            CompletableFuture.allOf(apps.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof LocalStackException problem ? problem : new LocalStackException(e.getCause().toString());
        }

        System.out.printf("%nOpenRAG is up in %.1f s%n", (System.nanoTime() - began) / 1e9);
        System.out.println("  query API        " + stack.url(Stack.App.QUERY_API) + "   (OpenAPI UI: /q/swagger-ui)");
        System.out.println("  ingest pipeline  " + stack.url(Stack.App.INGEST_PIPELINE));
        System.out.println("  MCP memory       " + stack.url(Stack.App.MCP_MEMORY) + "/mcp   (SSE: /mcp/sse)");
        System.out.println("  Kafka            " + stack.config.kafkaBootstrapServers());
        System.out.println("  Neo4j (Bolt)     " + stack.config.neo4jUri());
        System.out.println("  OpenSearch       " + stack.config.openSearchUrl());
        System.out.println("Logs: ./openrag logs NAME   Stop: ./openrag down");
    }
}
