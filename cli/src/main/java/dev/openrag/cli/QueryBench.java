package dev.openrag.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.schemas.Chunk;
import dev.openrag.schemas.ChunksEmbedded;
import dev.openrag.schemas.EventCodec;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.Source;
import dev.openrag.schemas.Topics;

/**
 * {@code openrag bench query}: hybrid search latency (p50/p95/p99) and queries/s with 1 and 8
 * concurrent clients, on the imported corpus and optionally on a synthetic collection whose
 * chunks and random unit vectors enter through the sink path (openrag.chunks.embedded), skipping
 * the embedder. Explain timings show where the time goes. query-api caches query vectors, so the
 * searches whose vector was computed (first-time) and those answered from the cache (repeated) are
 * also reported apart, by what each answer's explain says ({@code cache.embedQuery}); the warm-up
 * asks other texts than the measured ones, so a run against a freshly started query-api measures
 * each query text's first time before its repeats. {@code openrag bench ask} times extractive asks
 * the same way ({@link #measureAsk}).
 */
final class QueryBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int DIMENSION = 384;
    private static final int CHUNKS_PER_DOCUMENT = 100;

    private final ApiClient query;
    private final List<String> queries;

    QueryBench(String queryUrl, Path queriesFile) throws IOException {
        this.query = new ApiClient(queryUrl);
        this.queries = new ArrayList<>();
        for (String line : Files.readAllLines(queriesFile)) {
            if (!line.isBlank()) {
                queries.add(JSON.readTree(line).path("query").asText());
            }
        }
    }

    /** Times {@code requests} searches spread over {@code clients} threads; prints and returns the summary line. */
    String measure(String collection, long chunks, int clients, int requests) throws Exception {
        return measure(collection, chunks, clients, requests, null).line();
    }

    /** A run's summary line, its p50 and the mean number of results a search returned. */
    record Measured(String line, double p50, double meanResults) {
    }

    /**
     * {@code --filter}: the same searches unfiltered, then filtered, and one line with both p50s and
     * their ratio (the target: filtered within 1.3x), with how many results the filtered ones returned
     * on average and how many of the collection's documents the filter keeps (a filter that keeps
     * nothing, or everything, is quick and proves nothing).
     */
    String measureFiltered(String collection, long chunks, int clients, int requests, JsonNode filter) throws Exception {
        Measured plain = measure(collection, chunks, clients, requests, null);
        Measured filtered = measure(collection, chunks, clients, requests, filter);
        return String.format(Locale.ROOT, "query-filtered chunks=%d clients=%d p50_ms=%.1f unfiltered_p50_ms=%.1f ratio=%.2f "
                        + "mean_results=%.1f unfiltered_mean_results=%.1f kept_documents=%d/%d filter=%s", chunks, clients, filtered.p50(),
                plain.p50(), filtered.p50() / plain.p50(), filtered.meanResults(), plain.meanResults(), documents(collection, filter),
                documents(collection, null), JSON.writeValueAsString(filter));
    }

    private Measured measure(String collection, long chunks, int clients, int requests, JsonNode filter) throws Exception {
        // warm-up, every query once (at least 20 searches): JIT, caches, connections. A search's
        // code paths differ with its query (code names, quoting), and 20 searches left query-api's
        // JIT still settling: three runs in a row after a restart went 31.6, 26.4, 23.0 ms at p50
        for (int i = 0; i < Math.max(20, queries.size()); i++) {
            search(collection, "warm-up " + queries.get(i % queries.size()), filter);
        }
        Run run = new Run();
        java.util.concurrent.atomic.AtomicLong results = new java.util.concurrent.atomic.AtomicLong();
        run.time(clients, requests, i -> {
            JsonNode answer = search(collection, queries.get(i % queries.size()), filter);
            results.addAndGet(answer.path("results").size());
            return new Answered(answer, "hit".equals(answer.path("cache").path("embedQuery").asText()));
        });
        String line = run.report("query" + (filter == null ? "" : " (filtered)"), chunks, clients);
        return new Measured(line, run.latencies.percentile(50), (double) results.get() / Math.max(1, run.latencies.count()));
    }

    /**
     * {@code openrag bench ask}: extractive ask latency, one client, as {@link #measure} times searches:
     * each of {@code requests / 2} questions asked once, then each again, and the asks whose question's
     * vector query-api computed (first-time) told from those it took from its cache (repeated) by its
     * {@code /q/metrics} cache counter, read between asks. An answer written by a chat model is refused:
     * that measures the model, not the ask.
     */
    String measureAsk(String collection, long chunks, int requests) throws Exception {
        for (int i = 0; i < Math.max(20, queries.size()); i++) {
            ask(collection, "warm-up " + queries.get(i % queries.size()));
        }
        int questions = Math.max(1, Math.min(queries.size(), requests / 2));
        Run run = new Run();
        double[] hits = {cacheHits()};
        run.time(1, 2 * questions, i -> {
            long sent = System.nanoTime();
            JsonNode answer = ask(collection, queries.get(i % questions));
            double millis = (System.nanoTime() - sent) / 1e6; // the ask alone, not the metrics read below
            if (!"extractive".equals(answer.path("mode").asText())) {
                throw new IllegalStateException("query-api answered in mode '" + answer.path("mode").asText() + "' ("
                        + answer.path("model").asText("no model") + "): 'bench ask' times extractive answers; run query-api "
                        + "with openrag.chat.provider=none");
            }
            double now = cacheHits();
            // without the counter (metrics off), a question's second ask is the repeated one
            boolean repeated = Double.isNaN(now) ? i >= questions : now > hits[0];
            hits[0] = now;
            return new Answered(answer, repeated, millis);
        });
        return run.report("ask (extractive)", chunks, 1);
    }

    /** query-api's query-vector cache hits so far ({@code cache_gets_total{cache="query-vectors",result="hit"}}); NaN without metrics. */
    private double cacheHits() {
        try {
            return query.getText("/q/metrics").lines()
                    .filter(line -> line.startsWith("cache_gets_total{") && line.contains("cache=\"query-vectors\"")
                            && line.contains("result=\"hit\""))
                    .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * A request's answer, whether query-api answered its query vector from its cache, and the request's own time
     * when the request did more than the timed call (NaN: the whole request is timed).
     */
    private record Answered(JsonNode answer, boolean repeated, double millis) {
        Answered(JsonNode answer, boolean repeated) {
            this(answer, repeated, Double.NaN);
        }
    }

    /** A request of a timed run: the {@code i}th. */
    private interface Request {
        Answered send(int i) throws Exception;
    }

    /** Latencies of a run, first-time and repeated apart, with query-api's own time and its mean per step. */
    private static final class Run {
        final Latencies latencies = new Latencies();
        final Latencies firstTime = new Latencies();
        final Latencies repeated = new Latencies();
        final Latencies serverTimes = new Latencies();
        final Map<String, Double> timingSums = new TreeMap<>();
        double seconds;

        /** Sends {@code requests} requests spread over {@code clients} threads, timing each. */
        void time(int clients, int requests, Request request) throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            long started = System.nanoTime();
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                running.add(pool.submit(() -> {
                    for (int i = client; i < requests; i += clients) {
                        long sent = System.nanoTime();
                        Answered answered = request.send(i);
                        double millis = Double.isNaN(answered.millis()) ? (System.nanoTime() - sent) / 1e6 : answered.millis();
                        synchronized (this) {
                            latencies.addMillis(millis);
                            (answered.repeated() ? repeated : firstTime).addMillis(millis);
                            serverTimes.addMillis(answered.answer().path("tookMs").asDouble());
                            answered.answer().path("timings").fields()
                                    .forEachRemaining(t -> timingSums.merge(t.getKey(), t.getValue().asDouble(), Double::sum));
                        }
                    }
                    return null;
                }));
            }
            try {
                for (Future<?> future : running) {
                    future.get();
                }
            } catch (java.util.concurrent.ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            } finally {
                pool.shutdown();
            }
            seconds = (System.nanoTime() - started) / 1e9;
        }

        /** Prints the run as {@code bench query} does and returns its summary line. */
        String report(String what, long chunks, int clients) {
            StringBuilder where = new StringBuilder();
            timingSums.forEach((step, sum) -> where.append(String.format(Locale.ROOT, " %s=%.1fms", step, sum / latencies.count())));
            String line = String.format(Locale.ROOT, "%s chunks=%d clients=%d p50_ms=%.1f p95_ms=%.1f p99_ms=%.1f qps=%.1f",
                    what, chunks, clients, latencies.percentile(50), latencies.percentile(95), latencies.percentile(99),
                    latencies.count() / seconds);
            // the server's own time (tookMs) beside the client's: what the client and the network add
            System.out.printf(Locale.ROOT, "%s   server p50_ms=%.0f%s%n", line, serverTimes.percentile(50),
                    where.isEmpty() ? "" : ", mean per step:" + where);
            System.out.printf(Locale.ROOT, "  first-time (query vector computed) %s; repeated (vector from the cache) %s%n",
                    summary(firstTime), summary(repeated));
            return line;
        }
    }

    private static String summary(Latencies latencies) {
        return latencies.count() == 0 ? "n=0" : String.format(Locale.ROOT, "n=%d p50_ms=%.1f p99_ms=%.1f", latencies.count(),
                latencies.percentile(50), latencies.percentile(99));
    }

    private JsonNode ask(String collection, String question) throws IOException {
        return query.postJson("/api/ask", JSON.writeValueAsString(Map.of("question", question, "k", 5, "collection", collection)));
    }

    /** How many of the collection's documents the filter keeps (null: all), as document browsing counts them. */
    private long documents(String collection, JsonNode filter) throws IOException {
        String path = "/api/documents?size=1&collection=" + java.net.URLEncoder.encode(collection, java.nio.charset.StandardCharsets.UTF_8)
                + (filter == null ? "" : "&filter=" + java.net.URLEncoder.encode(JSON.writeValueAsString(filter),
                        java.nio.charset.StandardCharsets.UTF_8));
        return query.get(path).path("total").asLong();
    }

    private JsonNode search(String collection, String text, JsonNode filter) throws IOException {
        Map<String, Object> request = new java.util.HashMap<>(Map.of("query", text, "k", 10, "collection", collection, "mode", "hybrid",
                "explain", true));
        if (filter != null) {
            request.put("filter", filter);
        }
        return query.postJson("/api/search", JSON.writeValueAsString(request));
    }

    /** Writes {@code count} synthetic chunks with random unit vectors to openrag.chunks.embedded; the sinks index them. */
    static void publishSynthetic(String kafka, String collection, int count) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 16 * 1024 * 1024);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        EventCodec codec = new EventCodec();
        SyntheticText text = new SyntheticText(7);
        Random random = new Random(7);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            String jobId = Ids.newEventId();
            for (int doc = 0; doc * CHUNKS_PER_DOCUMENT < count; doc++) {
                String documentId = "synthetic-" + doc;
                List<Chunk> chunks = new ArrayList<>();
                for (int i = 0; i < CHUNKS_PER_DOCUMENT && doc * CHUNKS_PER_DOCUMENT + i < count; i++) {
                    String body = text.sentence() + " " + text.sentence() + " " + text.sentence() + " " + text.sentence();
                    chunks.add(new Chunk(Ids.chunkId(collection, documentId, i), i, body, List.of(), 0, body.length(),
                            "Synthetic document " + doc, unitVector(random)));
                }
                ChunksEmbedded event = new ChunksEmbedded(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(), documentId, jobId,
                        collection, new Source("bench", "synthetic://" + documentId), "Synthetic " + doc, Ids.contentHash(documentId),
                        "synthetic-random", DIMENSION, chunks, Map.of(), null);
                producer.send(new ProducerRecord<>(Topics.CHUNKS_EMBEDDED, documentId, codec.toJson(event)));
            }
        }
    }

    private static float[] unitVector(Random random) {
        float[] vector = new float[DIMENSION];
        double norm = 0;
        for (int i = 0; i < DIMENSION; i++) {
            vector[i] = (float) random.nextGaussian();
            norm += vector[i] * vector[i];
        }
        for (int i = 0; i < DIMENSION; i++) {
            vector[i] /= (float) Math.sqrt(norm);
        }
        return vector;
    }
}
