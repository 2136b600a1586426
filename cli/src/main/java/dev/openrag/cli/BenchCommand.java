package dev.openrag.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.openrag.knowledge.contextual.StructuralContextualizer;
import dev.openrag.knowledge.embedding.OnnxEmbedder;
import dev.openrag.knowledge.summary.ExtractiveSummarizer;
import dev.openrag.knowledge.summary.SectionSummaries;
import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.Topics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code openrag bench ingest}: end-to-end ingestion throughput next to the bare embedder's;
 * {@code openrag bench memory}: add_memory and search_memory latency through MCP with N memories;
 * {@code openrag bench faults}: recovery from each engine's outage mid-import ({@link FaultBench});
 * {@code openrag bench soak}: a sustained stream of documents while clients search ({@link SoakBench}).
 */
@Command(name = "bench", description = "Benchmarks. 'ingest': end-to-end chunks/s of a corpus vs the bare embedder; "
        + "'query': hybrid search latency and queries/s, 1 and 8 clients, first-time and repeated queries apart; "
        + "'ask': extractive ask latency, 1 client, each question asked once then again (first-time and repeated apart); "
        + "'memory': add_memory/search_memory latency over MCP with --memories memories in one scope; "
        + "'faults': kill -9 each engine mid-corpus, restart it after --outage s, time the recovery and count the chunks; "
        + "'memory-scenarios': what ordinary agents store and ask, checked through the MCP tools (last line 'memory scenarios passed=N/M'); "
        + "'locomo': LoCoMo evidence recall@5/10/20 of search_memory over the conversations in --data; "
        + "'soak': --documents generated documents at --rate a second onto openrag.documents.arrived while 4 clients search; "
        + "'sync': a folder of --files generated files kept in a collection: first, unchanged and 1%%-edited syncs.")
class BenchCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "WHAT", description = "ingest, query, ask, memory, memory-scenarios, faults, locomo, soak or sync")
    String what;

    @Option(names = "--queries", defaultValue = "../shared/datasets/codebase/evaluation_dev.jsonl",
            description = "queries for 'query' and 'ask' (default: ${DEFAULT-VALUE})")
    Path queries;

    @Option(names = "--query-url", defaultValue = "${env:OPENRAG_QUERY_API_URL:-http://127.0.0.1:8080}", description = "query-api URL")
    String queryUrl;

    @Option(names = "--kafka", defaultValue = "${env:KAFKA_BOOTSTRAP_SERVERS:-127.0.0.1:9092}", description = "Kafka for 'query --synthetic'")
    String kafka;

    @Option(names = "--synthetic", defaultValue = "0",
            description = "for 'query': also bench a synthetic collection of this many chunks (e.g. 100000)")
    int synthetic;

    @Option(names = "--filter", paramLabel = "JSON", description = "for 'query': also time the searches with this filter and print "
            + "the filtered p50 beside the unfiltered one, and how many documents it keeps (e.g. '{\"docId\": {\"prefix\": \"doc_1\"}}', "
            + "11 of the dev corpus's 90 documents)")
    String filter;

    @Option(names = "--requests", defaultValue = "400", description = "searches per client setting for 'query', asks for 'ask' "
            + "(default ${DEFAULT-VALUE})")
    int requests;

    @Option(names = "--mcp-url", defaultValue = "${env:OPENRAG_MCP_URL:-http://127.0.0.1:8082}", description = "mcp-memory URL")
    String mcpUrl;

    @Option(names = "--memories", defaultValue = "10000", description = "memories to add for 'memory' (default ${DEFAULT-VALUE})")
    int memories;

    @Option(names = "--searches", defaultValue = "500", description = "searches to time for 'memory' (default ${DEFAULT-VALUE})")
    int searches;

    @Option(names = "--after-adds", defaultValue = "200",
            description = "for 'memory': then this many add_memory and search_memory pairs, each search timed right after its add, "
                    + "as an agent that remembers and recalls in turn (default ${DEFAULT-VALUE}; 0: none)")
    int afterAdds;

    @Option(names = "--corpus", defaultValue = "../shared/datasets/codebase/codebase_chunks.json",
            description = "pre-chunked corpus (default: ${DEFAULT-VALUE})")
    Path corpus;

    @Option(names = "--outage", defaultValue = "45", description = "for 'faults': seconds each engine stays down (default ${DEFAULT-VALUE})")
    long outage;

    @Option(names = "--data", defaultValue = "../shared/datasets/locomo",
            description = "for 'locomo': folder of LoCoMo conversations (default: ${DEFAULT-VALUE})")
    Path locomo;

    @Option(names = "--memory-mode", defaultValue = "hybrid", description = "for 'locomo': search_memory mode, hybrid, vector or bm25")
    String memoryMode;

    @Option(names = "--no-turn-context", description = "for 'locomo': embed each turn alone, without the turn before it as context")
    boolean noTurnContext;

    @Option(names = "--plain", description = "for 'locomo': add each turn as a plain MCP client would, one add_memory with text, "
            + "occurredAt and the turn's id as tag (no speaker, no context)")
    boolean plain;

    @Option(names = "--entity-links", description = "for 'locomo': search_memory with entityLinks (off by default)")
    boolean entityLinks;

    @Option(names = "--summaries", description = "for 'locomo': summarize_memories on each conversation before its questions")
    boolean summaries;

    @Option(names = "--asked-at-the-end", description = "for 'locomo': ask each question as of its conversation's last session"
            + " (referenceTime), not now")
    boolean askedAtTheEnd;

    @Option(names = "--dump", description = "for 'locomo': write each question with its evidence and first 50 results as JSON lines")
    Path dump;

    @Option(names = "--tune", split = ",", paramLabel = "CONVERSATION",
            description = "for 'locomo': also print recall over these conversations (e.g. 26,30,41) and over the others, "
                    + "the tune and check halves of a setting's choice")
    List<String> tune;

    @Option(names = "--documents", defaultValue = "5000", description = "for 'soak': documents to stream (default ${DEFAULT-VALUE})")
    int documents;

    @Option(names = "--files", defaultValue = "10000", description = "for 'sync': files in the generated folder (default ${DEFAULT-VALUE})")
    int files;

    @Option(names = "--rate", defaultValue = "2", description = "for 'soak': documents a second (default ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--cluster", description = "for 'ingest': on the cluster profile (up --cluster), the corpus through one ingest "
            + "instance, then through two")
    boolean cluster;

    @Option(names = "--url", defaultValue = "${env:OPENRAG_INGEST_URL:-http://127.0.0.1:8081}", description = "ingest-pipeline URL")
    String url;

    @Override
    public Integer call() throws Exception {
        return switch (what) {
            case "ingest" -> cluster ? ingestOnCluster() : ingest();
            case "memory" -> memory();
            case "memory-scenarios" -> new MemoryScenarios(new McpSession(mcpUrl)::call).run(System.out).failures().isEmpty() ? 0 : 1;
            case "query" -> query();
            case "ask" -> ask();
            case "faults" -> new FaultBench(url, corpus, Duration.ofSeconds(outage)).run();
            case "sync" -> new SyncBench(url, files).run();
            case "soak" -> new SoakBench(kafka, url, queryUrl, queries, documents, rate).run();
            case "locomo" -> new LocomoBench(mcpUrl, locomo, memoryMode, !noTurnContext, entityLinks).dumpTo(dump).withSummaries(summaries).askedAtTheEnd(askedAtTheEnd)
                    .plain(plain).withTuneHalf(tune).run();
            default -> {
                System.err.println("openrag: unknown benchmark '" + what + "'; available: ingest, query, ask, memory, memory-scenarios, faults, "
                        + "locomo, soak, sync");
                yield 2;
            }
        };
    }

    /** The collection 'query' and 'ask' run on: the corpus, imported the first time. */
    private static final String CORPUS_COLLECTION = "bench-query";

    /** The corpus collection's chunks, imported first if it has none. */
    private long corpusChunks() throws Exception {
        ApiClient ingest = new ApiClient(url);
        long chunks = ingest.get("/api/collections/" + CORPUS_COLLECTION + "/stats").path("chunks").path("opensearch").asLong();
        if (chunks == 0) {
            CorpusImport.run(url, corpus, CORPUS_COLLECTION);
            chunks = ingest.get("/api/collections/" + CORPUS_COLLECTION + "/stats").path("chunks").path("opensearch").asLong();
        }
        return chunks;
    }

    private int ask() throws Exception {
        if (requests < 2) {
            System.err.printf(Locale.ROOT, "openrag: 'bench ask' needs --requests of at least 2 (each question asked twice), got %d%n", requests);
            return 2;
        }
        QueryBench bench = new QueryBench(queryUrl, queries);
        long chunks = corpusChunks();
        try {
            System.out.println(bench.measureAsk(CORPUS_COLLECTION, chunks, requests));
        } catch (IllegalStateException e) {
            System.err.println("openrag: " + e.getMessage());
            return 1;
        }
        return 0;
    }

    private int query() throws Exception {
        QueryBench bench = new QueryBench(queryUrl, queries);
        String corpusCollection = CORPUS_COLLECTION;
        ApiClient ingest = new ApiClient(url);
        long chunks = corpusChunks();
        List<String> lines = new ArrayList<>();
        if (filter != null) {
            // the filtered figure beside the unfiltered one, both measured now, on the same corpus
            JsonNode parsed = MetaOptions.filter(filter);
            lines.add(bench.measureFiltered(corpusCollection, chunks, 1, requests, parsed));
            lines.add(bench.measureFiltered(corpusCollection, chunks, 8, requests, parsed));
            lines.forEach(System.out::println);
            return 0;
        }
        lines.add(bench.measure(corpusCollection, chunks, 1, requests));
        lines.add(bench.measure(corpusCollection, chunks, 8, requests));
        if (synthetic > 0) {
            String syntheticCollection = "bench-synthetic-" + synthetic;
            long indexed = ingest.get("/api/collections/" + syntheticCollection + "/stats").path("chunks").path("neo4j").asLong();
            if (indexed == 0) {
                System.out.printf(Locale.ROOT, "publishing %d synthetic chunks to %s (sink path, no embedder) ...%n", synthetic, Topics.CHUNKS_EMBEDDED);
                QueryBench.publishSynthetic(kafka, syntheticCollection, synthetic);
            }
            if (indexed < synthetic) {
                long started = System.nanoTime();
                long lastProgress = System.nanoTime();
                while (indexed < synthetic && System.nanoTime() - lastProgress < 60_000_000_000L) {
                    Thread.sleep(5000);
                    JsonNode stats = ingest.get("/api/collections/" + syntheticCollection + "/stats").path("chunks");
                    long now = Math.min(stats.path("neo4j").asLong(), stats.path("opensearch").asLong());
                    lastProgress = now > indexed ? System.nanoTime() : lastProgress;
                    indexed = now;
                    System.out.printf(Locale.ROOT, "  %d / %d chunks in both stores (%.0f s)%n", indexed, synthetic, (System.nanoTime() - started) / 1e9);
                }
                if (indexed < synthetic) {
                    System.out.printf(Locale.ROOT, "  no progress for 60 s: benchmarking the %d chunks indexed (see the ingest dead-letter topic)%n", indexed);
                }
            }
            lines.add(bench.measure(syntheticCollection, indexed, 1, requests));
            lines.add(bench.measure(syntheticCollection, indexed, 8, requests));
        }
        lines.forEach(System.out::println);
        return 0;
    }

    private int memory() {
        if (memories < 1 || searches < 1 || afterAdds < 0) {
            System.err.printf(Locale.ROOT, "openrag: 'bench memory' needs --memories and --searches of at least 1 and --after-adds of at least 0, "
                    + "got %d, %d and %d%n", memories, searches, afterAdds);
            return 2;
        }
        McpSession mcp = new McpSession(mcpUrl);
        String scope = "bench-" + System.currentTimeMillis();
        SyntheticText text = new SyntheticText(42);
        for (int i = 0; i < 20; i++) { // warm-up: JIT, connection, embedder
            mcp.call("search_memory", Map.of("query", text.sentence(), "scope", scope));
        }
        Latencies adds = new Latencies();
        for (int i = 0; i < memories; i++) {
            long started = System.nanoTime();
            mcp.call("add_memory", Map.of("text", text.sentence(), "scope", scope, "tags", List.of(text.word())));
            adds.add(started);
            if ((i + 1) % 1000 == 0) {
                System.out.printf(Locale.ROOT, "  %d memories added (add_memory %s)%n", i + 1, adds.summary());
            }
        }
        Latencies finds = new Latencies();
        for (int i = 0; i < searches; i++) {
            long started = System.nanoTime();
            mcp.call("search_memory", Map.of("query", text.sentence(), "scope", scope, "k", 10));
            finds.add(started);
        }
        // an agent that remembers and recalls in turn: each add gives the scope a new version, which the search after it
        // must catch up with (MemoryScopeCopies applies the instance's own adds to the scope's in-memory copy)
        Latencies afterAdd = new Latencies();
        for (int i = 0; i < afterAdds; i++) {
            mcp.call("add_memory", Map.of("text", text.sentence(), "scope", scope, "tags", List.of(text.word())));
            long started = System.nanoTime();
            mcp.call("search_memory", Map.of("query", text.sentence(), "scope", scope, "k", 10));
            afterAdd.add(started);
        }
        System.out.printf(Locale.ROOT, "add_memory    %s%n", adds.summary());
        System.out.printf(Locale.ROOT, "search_memory %s (scope %s holding %d memories)%n", finds.summary(), scope, memories);
        if (afterAdds > 0) {
            System.out.printf(Locale.ROOT, "search_memory right after an add_memory %s%n", afterAdd.summary());
        }
        System.out.printf(Locale.ROOT, "memory add_p50_ms=%.1f add_p99_ms=%.1f search_p50_ms=%.1f search_p99_ms=%.1f memories=%d%n",
                adds.percentile(50), adds.percentile(99), finds.percentile(50), finds.percentile(99), memories);
        return 0;
    }

    /**
     * The corpus on the cluster profile, first with the second ingest instance stopped, then with
     * it running: on 2 cores the second instance cannot add CPU, so the pair of figures shows what
     * replication (3 brokers, 2 OpenSearch nodes) and sharing the partitions cost.
     */
    private int ingestOnCluster() throws Exception {
        Stack stack = new Stack();
        if (!stack.cluster()) {
            System.err.println("openrag: 'bench ingest --cluster' needs the cluster profile: ./openrag up --cluster (in a home of its own)");
            return 2;
        }
        String json = Files.readString(corpus);
        ApiClient ingest = new ApiClient(url);
        Stack.Instance second = new Stack.Instance(Stack.App.INGEST_PIPELINE, 1);
        System.out.println("one ingest instance (" + second.name() + " stopped) ...");
        stack.engines.supervisor().stop(second.name(), Duration.ofSeconds(30));
        JsonNode one = runCorpus(ingest, json);
        System.out.println("two ingest instances ...");
        stack.engines.supervisor().start(stack.appSpec(second));
        JsonNode two = runCorpus(ingest, json);
        System.out.printf(Locale.ROOT, "ingest cluster one_instance_chunks_per_s=%.1f two_instances_chunks_per_s=%.1f chunks=%d brokers=%d opensearch_nodes=%d%n",
                one.path("rate").asDouble(), two.path("rate").asDouble(), two.path("chunks").asInt(),
                stack.config.kafkaBrokers(), stack.config.openSearchNodes());
        return "completed".equals(one.path("state").asText()) && "completed".equals(two.path("state").asText()) ? 0 : 1;
    }

    /** The corpus into a fresh collection, followed to the end: {rate, chunks, state}. */
    private static JsonNode runCorpus(ApiClient ingest, String json) throws Exception {
        String collection = "bench-" + System.currentTimeMillis();
        long started = System.nanoTime();
        JsonNode accepted = ingest.postJson("/api/corpus?collection=" + collection, json);
        JsonNode status = JobProgress.follow(ingest, accepted.path("jobId").asText(), System.out);
        double seconds = (System.nanoTime() - started) / 1e9;
        int chunks = status.path("stages").path("sink-opensearch").path("chunks").asInt();
        System.out.printf(Locale.ROOT, "  %d chunks in %.1f s = %.1f chunks/s (job %s, collection %s)%n", chunks, seconds, chunks / seconds,
                status.path("state").asText(), collection);
        return new ObjectMapper().createObjectNode().put("rate", chunks / seconds).put("chunks", chunks)
                .put("state", status.path("state").asText());
    }

    private int ingest() throws Exception {
        String json = Files.readString(corpus);
        JsonNode documents = new ObjectMapper().readTree(json);

        // the bare embedder on exactly what the pipeline embeds: structural context + chunk text, and the
        // section summaries of a collection's default settings (extractive; one per document here, as the
        // corpus' chunks carry no headings): their embeddings are work the pipeline does too
        StructuralContextualizer contextualizer = new StructuralContextualizer();
        ExtractiveSummarizer summarizer = new ExtractiveSummarizer();
        List<String> texts = new ArrayList<>();
        List<String> summaries = new ArrayList<>();
        for (JsonNode document : documents) {
            List<Chunk> chunks = new ArrayList<>();
            for (JsonNode chunk : document.path("chunks")) {
                chunks.add(new Chunk("bench", chunk.path("original_index").asInt(), chunk.path("content").asText(),
                        List.of(), 0, 0, null, null));
            }
            List<String> contexts = contextualizer.contexts(document.path("doc_id").asText(), null,
                    document.path("content").asText(), chunks);
            for (int i = 0; i < chunks.size(); i++) {
                texts.add(contexts.get(i) + "\n\n" + chunks.get(i).text());
            }
            SectionSummaries.of(document.path("doc_id").asText(), chunks, summarizer).forEach(section -> summaries.add(section.summary()));
        }
        OnnxEmbedder embedder = new OnnxEmbedder();
        embedder.embed(texts.subList(0, Math.min(16, texts.size()))); // warm-up: model load and JIT
        long bareCpu = StackCpu.self();
        double chunkSeconds = timeEmbedding(texts, embedder::embed);
        double summarySeconds = timeEmbedding(summaries, embedder::embed);
        double bareSeconds = chunkSeconds + summarySeconds;
        double embedCpuPerText = (double) (StackCpu.self() - bareCpu) / (texts.size() + summaries.size());
        double bareRate = texts.size() / bareSeconds; // chunks per second of the same work as the pipeline's
        System.out.printf(Locale.ROOT, "bare embedder: %d chunks in %.1f s and %d summaries in %.1f s = %.1f chunks/s (%.1f ms CPU a text)%n",
                texts.size(), chunkSeconds, summaries.size(), summarySeconds, bareRate, embedCpuPerText);

        // LangChain4j's stock model on the same texts, for comparison
        var stock = new BgeSmallEnV15QuantizedEmbeddingModel();
        stock.embedAll(texts.subList(0, Math.min(16, texts.size())).stream().map(TextSegment::from).toList());
        Consumer<List<String>> stockEmbedding = batch -> stock.embedAll(batch.stream().map(TextSegment::from).toList());
        double stockRate = texts.size() / (timeEmbedding(texts, stockEmbedding) + timeEmbedding(summaries, stockEmbedding));
        System.out.printf(Locale.ROOT, "stock embedder (LangChain4j BgeSmallEnV15QuantizedEmbeddingModel): %.1f chunks/s%n", stockRate);

        String collection = "bench-" + System.currentTimeMillis();
        ApiClient ingest = new ApiClient(url);
        Stack stack = new Stack();
        Map<String, Long> cpuBefore = StackCpu.sample(stack);
        Map<String, Long> embedderBefore = StackCpu.threadsByComponent(stack, EMBEDDER_THREAD::equals);
        Map<String, Long> jitBefore = StackCpu.threadsByComponent(stack, JIT_THREAD);
        long pipelineStart = System.nanoTime();
        JsonNode accepted = ingest.postJson("/api/corpus?collection=" + collection, json);
        JsonNode status = JobProgress.follow(ingest, accepted.path("jobId").asText(), System.out);
        double pipelineSeconds = (System.nanoTime() - pipelineStart) / 1e9;
        Map<String, Long> cpu = StackCpu.between(cpuBefore, StackCpu.sample(stack));
        Map<String, Long> embedderByComponent = StackCpu.between(embedderBefore, StackCpu.threadsByComponent(stack, EMBEDDER_THREAD::equals));
        Map<String, Long> jitByComponent = StackCpu.between(jitBefore, StackCpu.threadsByComponent(stack, JIT_THREAD));
        long embedderCpu = embedderByComponent.values().stream().mapToLong(Long::longValue).sum();
        long jitCpu = jitByComponent.values().stream().mapToLong(Long::longValue).sum();
        int chunks = status.path("stages").path("sink-opensearch").path("chunks").asInt();
        double pipelineRate = chunks / pipelineSeconds;
        System.out.printf(Locale.ROOT, "end to end:    %d chunks in %.1f s = %.1f chunks/s (job %s, collection %s)%n",
                chunks, pipelineSeconds, pipelineRate, status.path("state").asText(), collection);
        // every process's CPU during the run, less the pipeline's embedder threads' own (measured where the OS
        // accounts threads; elsewhere predicted from the bare run's CPU a text, which under the stack's
        // contention comes out a few percent low)
        long totalCpu = cpu.values().stream().mapToLong(Long::longValue).sum();
        double predictedEmbeddingCpu = embedCpuPerText * (chunks + (chunks == texts.size() ? summaries.size() : 0));
        double embeddingCpu = embedderCpu > 0 ? embedderCpu : predictedEmbeddingCpu;
        double outside = chunks == 0 ? 0 : (totalCpu - embeddingCpu) / chunks;
        System.out.printf(Locale.ROOT, "cpu during end to end: %s; total %.1f s, of which embedding %.1f s (%s; the bare run predicted %.1f s)"
                        + " and JIT compilation %.1f s%n",
                String.join(", ", cpu.entrySet().stream().map(e -> String.format(Locale.ROOT, "%s %.1f s", e.getKey(), e.getValue() / 1000.0)).toList()),
                totalCpu / 1000.0, embeddingCpu / 1000.0, embedderCpu > 0 ? "the pipeline's embedder threads" : "predicted",
                predictedEmbeddingCpu / 1000.0, jitCpu / 1000.0);
        if (embedderCpu > 0 && chunks > 0) {
            System.out.println(outsideTheEmbedderByComponent(cpu, embedderByComponent, jitByComponent, chunks));
        }
        System.out.printf(Locale.ROOT, "ingest end-to-end/bare-embedder ratio=%.2f e2e_chunks_per_s=%.1f embedder_chunks_per_s=%.1f"
                        + " stock_embedder_chunks_per_s=%.1f cpu_ms_per_chunk_outside_embedder=%.1f chunks=%d%n",
                pipelineRate / bareRate, pipelineRate, bareRate, stockRate, outside, chunks);
        return "completed".equals(status.path("state").asText()) ? 0 : 1;
    }

    /**
     * Each component's CPU a chunk outside the embedder's threads, with its JIT compilers' share, then the engines'
     * together: what the pipeline's own code could save is what is left once the engines' part is taken away.
     */
    static String outsideTheEmbedderByComponent(Map<String, Long> cpu, Map<String, Long> embedder, Map<String, Long> jit, int chunks) {
        List<String> parts = new ArrayList<>();
        long engines = 0;
        long enginesJit = 0;
        for (Map.Entry<String, Long> component : cpu.entrySet()) {
            String name = component.getKey();
            long outside = component.getValue() - embedder.getOrDefault(name, 0L);
            long compiling = jit.getOrDefault(name, 0L);
            parts.add(String.format(Locale.ROOT, "%s %.1f ms (JIT %.1f)", name, (double) outside / chunks, (double) compiling / chunks));
            if (Arrays.stream(Stack.App.values()).noneMatch(app -> name.startsWith(app.module))) {
                engines += outside;
                enginesJit += compiling;
            }
        }
        return String.format(Locale.ROOT, "cpu a chunk outside the embedder: %s; engines %.1f ms, of which JIT %.1f ms", String.join(", ", parts),
                (double) engines / chunks, (double) enginesJit / chunks);
    }

    /** The pipeline's embedder pool's threads (OnnxEmbedder), and the JVMs' JIT compiler threads, by name. */
    private static final String EMBEDDER_THREAD = "onnx-embedder";
    private static final Predicate<String> JIT_THREAD = name -> name.matches("C[12] CompilerThre.*");

    /** Seconds to embed the texts in batches of 32, as the pipeline's embed stage sees them. */
    private static double timeEmbedding(List<String> texts, Consumer<List<String>> embed) {
        long start = System.nanoTime();
        for (int from = 0; from < texts.size(); from += 32) {
            embed.accept(texts.subList(from, Math.min(texts.size(), from + 32)));
        }
        return (System.nanoTime() - start) / 1e9;
    }
}
