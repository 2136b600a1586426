package dev.openrag.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.schemas.DocumentArrived;
import dev.openrag.schemas.EventCodec;
import dev.openrag.schemas.EventEnvelope;
import dev.openrag.schemas.Ids;
import dev.openrag.schemas.Source;
import dev.openrag.schemas.Topics;

/**
 * {@code openrag bench soak}: a producer streams generated documents (Markdown and Java of varied
 * sizes, the same for every run) onto {@code openrag.documents.arrived} at a steady rate while four
 * clients search the growing collection. Every 10 s it prints the consumer lag of the pipeline's
 * groups and the chunks in the stores, every minute each app's heap and RSS; at the end search
 * latency during ingest against idle (the full collection, after the lag drained, searched by the
 * same four clients; one client's figures are printed beside them), each app's heap and RSS at
 * start and end, and whether every document reached every store.
 */
final class SoakBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SEARCH_CLIENTS = 4;
    /** Searches timed idle, spread over the same clients as during ingest. */
    private static final int IDLE_SEARCHES = 800;
    /** Each app's heap and RSS are printed every this many 10 s progress lines. */
    private static final int MEMORY_EVERY_TICKS = 6;
    /** How long the lag may take to drain once the producer is done (5000 documents take 42 min to produce at 2/s). */
    private static final long DRAIN_TIMEOUT_NANOS = TimeUnit.MINUTES.toNanos(30);
    private static final Map<String, String> APPS = Map.of("query-api", "http://127.0.0.1:8080", "ingest-pipeline",
            "http://127.0.0.1:8081", "mcp-memory", "http://127.0.0.1:8082");

    private final String kafka;
    private final ApiClient ingest;
    private final ApiClient query;
    private final List<String> questions;
    private final int documents;
    private final double rate;
    private final AtomicInteger failures = new AtomicInteger();
    private volatile String firstFailure;

    SoakBench(String kafka, String ingestUrl, String queryUrl, Path queries, int documents, double rate) throws IOException {
        this.kafka = kafka;
        this.ingest = new ApiClient(ingestUrl);
        this.query = new ApiClient(queryUrl);
        this.questions = new ArrayList<>();
        for (String line : Files.readAllLines(queries)) {
            if (!line.isBlank()) {
                questions.add(JSON.readTree(line).path("query").asText());
            }
        }
        this.documents = documents;
        this.rate = rate;
    }

    int run() throws Exception {
        String collection = "soak-" + System.currentTimeMillis();
        Stack stack = new Stack();
        Map<String, String> memoryAtStart = memory(stack);
        System.out.printf(Locale.ROOT, "soak: %d documents at %.1f/s into %s, %d search clients%n", documents, rate, collection, SEARCH_CLIENTS);
        memoryAtStart.forEach((app, memory) -> System.out.printf(Locale.ROOT, "  at start  %-16s %s%n", app, memory));

        AtomicBoolean producing = new AtomicBoolean(true);
        Latencies duringIngest = new Latencies();
        ExecutorService clients = Executors.newFixedThreadPool(SEARCH_CLIENTS + 1);
        for (int c = 0; c < SEARCH_CLIENTS; c++) {
            int client = c;
            clients.submit(() -> search(collection, client, producing, duringIngest));
        }
        long started = System.nanoTime();
        clients.submit(() -> produce(collection, producing));

        long lagMax = 0;
        long lag = 0;
        long chunks = 0;
        long indexedDocuments = 0;
        long producedAt = 0;
        int ticks = 0;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka))) {
            while (producedAt == 0 || System.nanoTime() - producedAt < DRAIN_TIMEOUT_NANOS) {
                TimeUnit.SECONDS.sleep(10);
                lag = lag(admin);
                lagMax = Math.max(lagMax, lag);
                JsonNode stats = ingest.get("/api/collections/" + collection + "/stats");
                chunks = Math.min(stats.path("chunks").path("neo4j").asLong(), stats.path("chunks").path("opensearch").asLong());
                indexedDocuments = stats.path("documents").asLong();
                double seconds = (System.nanoTime() - started) / 1e9;
                if (!producing.get() && producedAt == 0) {
                    producedAt = System.nanoTime();
                }
                System.out.printf(Locale.ROOT, "  t=%4.0fs %s lag=%d documents=%d/%d chunks=%d%n", seconds, producing.get() ? "producing" : "drained? ",
                        lag, indexedDocuments, documents, chunks);
                if (++ticks % MEMORY_EVERY_TICKS == 0) { // memory over time: growth beyond warm-up, or flat
                    System.out.printf(Locale.ROOT, "  t=%4.0fs memory %s%n", seconds, String.join("; ", memory(stack).entrySet().stream()
                            .map(entry -> entry.getKey() + " " + entry.getValue()).toList()));
                }
                if (!producing.get() && lag == 0 && indexedDocuments >= documents) {
                    break;
                }
            }
        }
        producing.set(false);
        double ingestSeconds = (System.nanoTime() - started) / 1e9;
        clients.shutdown();
        clients.awaitTermination(1, TimeUnit.MINUTES);

        // idle: the same four clients, so that the only difference from the figures during ingest is the ingest
        Latencies idle = new Latencies();
        ExecutorService idleClients = Executors.newFixedThreadPool(SEARCH_CLIENTS);
        for (int c = 0; c < SEARCH_CLIENTS; c++) {
            int client = c;
            idleClients.submit(() -> {
                for (int i = client; i < IDLE_SEARCHES; i += SEARCH_CLIENTS) {
                    long sent = System.nanoTime();
                    searchOnce(collection, questions.get(i % questions.size()));
                    synchronized (idle) {
                        idle.add(sent);
                    }
                }
                return null;
            });
        }
        idleClients.shutdown();
        idleClients.awaitTermination(10, TimeUnit.MINUTES);
        Latencies idleOneClient = new Latencies();
        for (int i = 0; i < 200; i++) {
            long sent = System.nanoTime();
            searchOnce(collection, questions.get(i % questions.size()));
            idleOneClient.add(sent);
        }
        Map<String, String> memoryAtEnd = memory(stack);
        memoryAtEnd.forEach((app, memory) -> System.out.printf(Locale.ROOT, "  at end    %-16s %s (start: %s)%n", app, memory, memoryAtStart.get(app)));
        System.out.printf(Locale.ROOT, "search during ingest %s%nsearch idle          %s (the same %d clients)%n"
                + "search idle, 1 client %s%n", duringIngest.summary(), idle.summary(), SEARCH_CLIENTS, idleOneClient.summary());
        if (failures.get() > 0) {
            System.out.printf(Locale.ROOT, "searches that failed during ingest: %d (the first: %s)%n", failures.get(), firstFailure);
        }
        boolean complete = indexedDocuments >= documents;
        System.out.printf(Locale.ROOT, "soak documents=%d ingest_chunks_per_s=%.1f lag_max=%d lag_end=%d search_p50_ingest_ms=%.1f"
                        + " search_p99_ingest_ms=%.1f search_p50_idle_ms=%.1f search_p99_idle_ms=%.1f complete=%s%n",
                documents, chunks / ingestSeconds, lagMax, lag, duringIngest.percentile(50), duringIngest.percentile(99),
                idle.percentile(50), idle.percentile(99), complete);
        return complete && lag == 0 ? 0 : 1;
    }

    /** Sends the documents at the rate, the same ones on every run (seeded); stops early if asked. */
    private Void produce(String collection, AtomicBoolean producing) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 16 * 1024 * 1024);
        EventCodec codec = new EventCodec();
        Random random = new Random(42);
        SyntheticText text = new SyntheticText(42);
        String jobId = Ids.newEventId();
        long started = System.nanoTime();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < documents && producing.get(); i++) {
                boolean code = i % 3 == 2;
                String name = "soak-" + i + (code ? ".java" : ".md");
                String content = code ? javaSource(i, random, text) : markdown(i, random, text);
                DocumentArrived document = new DocumentArrived(EventEnvelope.CURRENT_SCHEMA_VERSION, Ids.newEventId(),
                        Ids.documentIdFromUri("soak://" + name), jobId, collection, new Source("bench", "soak://" + name), name,
                        code ? "text/x-java" : "text/markdown", content, DocumentArrived.TEXT, null, Map.of());
                producer.send(new ProducerRecord<>(Topics.DOCUMENTS_ARRIVED, document.documentId(), codec.toJson(document)));
                long due = started + (long) ((i + 1) / rate * 1e9);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            producing.set(false);
        }
        return null;
    }

    /** 1 to 12 sections of 1 to 4 paragraphs. */
    private static String markdown(int n, Random random, SyntheticText text) {
        StringBuilder doc = new StringBuilder("# Soak document " + n + "\n\n");
        for (int s = 0, sections = 1 + random.nextInt(12); s < sections; s++) {
            doc.append("## ").append(text.word()).append(' ').append(text.word()).append("\n\n");
            for (int p = 0, paragraphs = 1 + random.nextInt(4); p < paragraphs; p++) {
                doc.append(text.sentence()).append(' ').append(text.sentence()).append(' ').append(text.sentence()).append("\n\n");
            }
        }
        return doc.toString();
    }

    /** A class of 1 to 15 documented methods. */
    private static String javaSource(int n, Random random, SyntheticText text) {
        StringBuilder source = new StringBuilder("package soak;\n\n/** " + text.sentence() + " */\npublic class Soak" + n + " {\n");
        for (int m = 0, methods = 1 + random.nextInt(15); m < methods; m++) {
            source.append("\n    /** ").append(text.sentence()).append(" */\n    public int ").append(text.word()).append(m)
                    .append("(int value) {\n        int result = value * ").append(m + 2).append(";\n        return result + ")
                    .append(random.nextInt(100)).append(";\n    }\n");
        }
        return source.append("}\n").toString();
    }

    private Void search(String collection, int client, AtomicBoolean producing, Latencies latencies) {
        for (int i = client; producing.get(); i += SEARCH_CLIENTS) {
            long sent = System.nanoTime();
            try {
                searchOnce(collection, questions.get(i % questions.size()));
                synchronized (latencies) {
                    latencies.add(sent);
                }
            } catch (RuntimeException e) {
                // before the first document is indexed the collection does not exist yet: counted, not timed
                if (failures.getAndIncrement() == 0) {
                    firstFailure = e.getMessage();
                }
            }
        }
        return null;
    }

    private void searchOnce(String collection, String question) {
        try {
            query.postJson("/api/search", JSON.writeValueAsString(Map.of("query", question, "k", 10, "collection", collection)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Messages not yet processed by the pipeline's consumer groups (openrag-*), summed. */
    private static long lag(Admin admin) throws Exception {
        List<String> groups = admin.listConsumerGroups().all().get().stream().map(ConsumerGroupListing::groupId)
                .filter(id -> id.startsWith("openrag-")).toList();
        long lag = 0;
        for (String group : groups) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            Map<TopicPartition, OffsetSpec> latest = committed.keySet().stream().collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest()));
            var ends = admin.listOffsets(latest).all().get();
            for (var entry : committed.entrySet()) {
                if (entry.getValue() != null) {
                    lag += Math.max(0, ends.get(entry.getKey()).offset() - entry.getValue().offset());
                }
            }
        }
        return lag;
    }

    /** Each app's heap in use (its Micrometer gauge) and resident memory (from /proc). */
    private static Map<String, String> memory(Stack stack) {
        Map<String, String> memory = new LinkedHashMap<>();
        for (String app : List.of("query-api", "ingest-pipeline", "mcp-memory")) {
            String rss = stack.engines.supervisor().runningProcess(app).map(process -> residentMb(process.pid())).orElse("?");
            String heap;
            try {
                heap = String.format(Locale.ROOT, "%.0f MB", heapBytes(APPS.get(app)) / 1e6);
            } catch (RuntimeException e) {
                heap = "?";
            }
            memory.put(app, "heap " + heap + ", RSS " + rss);
        }
        return memory;
    }

    private static String residentMb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return String.format(Locale.ROOT, "%.0f MB", Long.parseLong(line.replaceAll("\\D+", "")) / 1024.0);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return "?";
        }
        return "?";
    }

    private static double heapBytes(String baseUrl) {
        try {
            var response = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(baseUrl + "/q/metrics")).build(), java.net.http.HttpResponse.BodyHandlers.ofLines());
            return response.body().filter(line -> line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\""))
                    .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
